// A large synthetic fleet for the effective-tools benchmark, written straight into the tables with
// the same document shapes apply would store: 50 units (5 roots × 9 children), 5,000 agents,
// 20,000 Tools, 20 connectors, 20 MCP servers; about 320 effective tools per agent across all tiers.
import { randomUUID } from 'node:crypto'
import pg from 'pg'

export const FLEET = {
  roots: 5,
  childrenPerRoot: 9,
  agents: 5000,
  tools: 20000,
  connectors: 20,
  toolsPerConnector: 50,
  servers: 20,
  toolsPerServer: 20,
  imageTools: 30,
  agentGrants: 20,
  rootGrants: 40,
  childGrants: 60,
}
const NS = 'bench'
const LEVELS = ['read_only', 'local_write', 'external_write', 'financial', 'communication', 'code_execution', 'privileged']

const inputSchema = (i) => ({
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string', description: 'Identifier of the record' },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    mode: { type: 'string', enum: ['fast', 'full'] },
    note: { type: 'string', maxLength: 200 + (i % 7) },
  },
})

function toolRow(name, i) {
  const level = LEVELS[i % LEVELS.length]
  const spec = {
    type: 'function',
    description: `Bench tool ${name}: does step ${i} of a workflow.`,
    inputSchema: inputSchema(i),
    sideEffects: { level, idempotent: i % 3 === 0 },
  }
  if (i % 11 === 0) spec.safety = { rateLimit: { callsPerMinute: 30, callsPerDay: 1000 } }
  return { id: randomUUID(), apiVersion: 'toolroom.dev/v1alpha1', namespace: NS, name, spec, type: 'function', level, description: spec.description }
}

const JSON_COLUMNS = new Set(['spec', 'toolSchemas', 'imageTools'])

async function insert(client, table, rows, columns) {
  for (let start = 0; start < rows.length; start += 500) {
    const batch = rows.slice(start, start + 500)
    const values = []
    const tuples = batch.map((row) => {
      const slots = columns.map((column) => {
        values.push(JSON_COLUMNS.has(column) ? JSON.stringify(row[column]) : (row[column] ?? null))
        return `$${values.length}`
      })
      return `(${slots.join(',')})`
    })
    await client.query(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(',')}) VALUES ${tuples.join(',')}`, values)
  }
}

export async function generateFleet(client) {
  const F = FLEET
  const connectorTools = []
  const connectors = []
  for (let c = 0; c < F.connectors; c++) {
    const slug = `conn${c}`
    const names = Array.from({ length: F.toolsPerConnector }, (_, t) => `${slug}.op_${t}`)
    names.forEach((n, t) => connectorTools.push(toolRow(n, c * 100 + t)))
    connectors.push({ id: randomUUID(), apiVersion: 'toolroom.dev/v1alpha1', namespace: NS, name: slug, spec: { displayName: `Connector ${c}`, tools: names } })
  }
  const pool = Array.from({ length: F.tools - connectorTools.length }, (_, i) => toolRow(`pool${Math.floor(i / 100)}.tool_${i % 100}`, i))
  await insert(client, 'Tool', [...connectorTools, ...pool], ['id', 'apiVersion', 'namespace', 'name', 'spec', 'type', 'level', 'description'])
  await insert(client, 'Connector', connectors, ['id', 'apiVersion', 'namespace', 'name', 'spec'])

  const servers = Array.from({ length: F.servers }, (_, s) => ({
    id: randomUUID(),
    apiVersion: 'toolroom.dev/v1alpha1',
    namespace: NS,
    name: `mcp-${s}`,
    phase: 'Ready',
    spec: { endpoint: `http://127.0.0.1:${5000 + s}/mcp`, port: 8080, deploymentMode: 'service', transport: 'streamable-http' },
    toolSchemas: Array.from({ length: F.toolsPerServer }, (_, t) => ({
      name: `do-thing-${t}`,
      description: `Server ${s} tool ${t}`,
      inputSchema: inputSchema(t),
      annotations: { readOnlyHint: t % 2 === 0 },
    })),
  }))
  await insert(client, 'LanguageTool', servers, ['id', 'apiVersion', 'namespace', 'name', 'phase', 'spec', 'toolSchemas'])

  const pick = (seed, count) => Array.from({ length: count }, (_, k) => pool[(seed * 7919 + k * 104729) % pool.length].name)
  const units = []
  for (let r = 0; r < F.roots; r++) {
    const root = `org-${r}`
    units.push({
      id: randomUUID(),
      apiVersion: 'toolroom.dev/v1alpha1',
      namespace: NS,
      name: root,
      parent: null,
      connectors: [`conn${r * 2}`, `conn${r * 2 + 1}`],
      spec: { connectors: [`conn${r * 2}`, `conn${r * 2 + 1}`], grants: pick(r, F.rootGrants), toggles: { [`conn${r * 2}.op_0`]: false } },
    })
    for (let c = 0; c < F.childrenPerRoot; c++) {
      const slug = `conn${10 + ((r * F.childrenPerRoot + c) % 10)}`
      units.push({
        id: randomUUID(),
        apiVersion: 'toolroom.dev/v1alpha1',
        namespace: NS,
        name: `team-${r}-${c}`,
        parent: root,
        connectors: [slug],
        spec: { parent: root, connectors: [slug], grants: pick(100 + r * 10 + c, F.childGrants) },
      })
    }
  }
  await insert(client, 'Unit', units, ['id', 'apiVersion', 'namespace', 'name', 'parent', 'connectors', 'spec'])

  const leafUnits = units.filter((u) => u.parent)
  const agents = Array.from({ length: F.agents }, (_, a) => {
    const digest = `sha256:${a.toString(16).padStart(64, '0')}`
    const grants = pick(1000 + a, F.agentGrants)
    // the first image tools collide with granted tools, so shadowing is part of the work
    const imageTools = Array.from({ length: F.imageTools }, (_, t) => ({
      name: t < 3 ? grants[t] : `img${a % 100}.tool_${t}`,
      description: `Image tool ${t} of agent ${a}`,
      inputSchema: inputSchema(t),
    }))
    const unit = leafUnits[a % leafUnits.length].name
    return {
      id: randomUUID(),
      apiVersion: 'toolroom.dev/v1alpha1',
      namespace: NS,
      name: `agent-${a}`,
      unit,
      connectors: [],
      spec: { unit, image: `registry.local/agent-${a}@${digest}`, languageTools: [`mcp-${a % F.servers}`], grants },
      imageTools,
      imageDigest: digest,
      imageToolsSource: 'upload',
      imageToolsUpdatedAt: new Date(),
    }
  })
  await insert(client, 'Agent', agents, [
    'id',
    'apiVersion',
    'namespace',
    'name',
    'unit',
    'connectors',
    'spec',
    'imageTools',
    'imageDigest',
    'imageToolsSource',
    'imageToolsUpdatedAt',
  ])
  return { agentIds: agents.map((a) => a.id) }
}

/** The seven side-effect policies of the demo fleet (approval for financial, communication and privileged). */
export async function insertSideEffectPolicies(client) {
  for (const [level, approval] of [
    ['read_only', false],
    ['local_write', false],
    ['external_write', false],
    ['financial', true],
    ['communication', true],
    ['code_execution', false],
    ['privileged', true],
  ])
    await client.query(
      `INSERT INTO "SideEffectPolicy" (id, "apiVersion", namespace, name, level, spec) VALUES (gen_random_uuid(), 'toolroom.dev/v1alpha1', 'default', $1, $2::"SideEffectLevel", $3)`,
      [level, level, JSON.stringify({ level, requiresApproval: approval, logArgs: true, logResult: true })],
    )
}

/**
 * The benchmarks' whole fleet in the database at `url`: generateFleet, the side-effect policies, then
 * ANALYZE, so each benchmark starts from the same planned state. Logs the time and the fleet's size.
 */
export async function seedBenchFleet(url, log) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const t0 = performance.now()
    const fleet = await generateFleet(client)
    await insertSideEffectPolicies(client)
    await client.query('ANALYZE')
    log(`fleet generated in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify(FLEET)}`)
    return fleet
  } finally {
    await client.end()
  }
}
