// npm run bench:tool-search — how well toolroom.list_tools with a query finds the tool for a task
// (docs/design/effective-tools.md#tool-search). A labelled set (scripts/bench/tool-search/queries.tsv:
// tasks as a user phrases them → the one tool that does it) over a fleet of 1,000+ tools with
// realistic names, descriptions and parameters (scripts/bench/tool-search/tools-*.txt, written apart
// from the queries). Reports recall@1, recall@5 and MRR over the whole fleet and over one agent of
// about 322 tools, query latency p50/p99 in process, index build time and size, and the tokens an
// agent spends: the full tools/list against the platform tools' definitions + one search + one
// inspect of the top hit. Tokens are estimated as characters / 4 of the JSON (no tokenizer).
// Record the figures in BENCHMARKS.md ("Tool search").
import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { PLATFORM_TOOLS } from '@/lib/effective-tools/platform-tools'
import { buildToolIndex, type SearchableTool, type ToolIndex } from '@/lib/tool-search/rank-tools'

const DIR = path.join(import.meta.dirname, 'tool-search')
const AGENT_TOOLS = 322
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const LIMIT = 10

interface BenchTool extends SearchableTool {
  level: string
}

function paramSchema(name: string, description?: string) {
  const type =
    /^(is_|has_|only_|all$|force|dry|async|notify|draft|private|protected|analyze|recursive|archived|confirm|merge$|prune|full$|previous$|public$|unique$|sensitive|proxied|active$)/i.test(
      name,
    )
      ? 'boolean'
      : /(count|limit|amount|size|seconds|days|number|replicas|per_page|max|timeout|port|partitions|ttl|priority)$/i.test(name)
        ? 'integer'
        : /(ids|labels|tags|users|items|assignees|reviewers|recipients|rows|records|documents|channels|keys|attendees)$/i.test(name)
          ? 'array'
          : 'string'
  return { type, ...(type === 'array' ? { items: { type: 'string' } } : {}), ...(description ? { description } : {}) }
}

/** The tool files: "@server", then "name | description | params | level" a line. */
function readFleet(): { tools: BenchTool[]; servers: string[] } {
  const tools: BenchTool[] = []
  const servers: string[] = []
  for (const file of readdirSync(DIR)
    .filter((f) => f.startsWith('tools-'))
    .sort()) {
    let server = ''
    for (const line of readFileSync(path.join(DIR, file), 'utf8').split('\n')) {
      if (!line.trim() || line.startsWith('#')) continue
      if (line.startsWith('@')) {
        server = line.slice(1).trim()
        servers.push(server)
        continue
      }
      const [name, description, params = '', , level = 'read_only'] = line.split('|').map((s) => s.trim())
      const properties: Record<string, object> = {}
      for (const p of params
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const colon = p.indexOf(':')
        const key = colon < 0 ? p : p.slice(0, colon).trim()
        properties[key] = paramSchema(key, colon < 0 ? undefined : p.slice(colon + 1).trim())
      }
      const required = Object.keys(properties).slice(0, 1)
      tools.push({
        name: `${server}.${name}`,
        description,
        inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
        server,
        level,
        traits: [level, ...(level === 'read_only' ? ['read only'] : ['write', 'destructive'])],
      })
    }
  }
  return { tools, servers }
}

function readQueries(): { expected: string; query: string }[] {
  return readFileSync(path.join(DIR, 'queries.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const [expected, query] = l.split('\t')
      return { expected, query }
    })
}

const { tools: fleet, servers } = readFleet()
const queries = readQueries()
const names = new Set(fleet.map((t) => t.name))
if (names.size !== fleet.length) throw new Error('tool names repeat')
for (const q of queries) if (!names.has(q.expected)) throw new Error(`${q.expected}: no such tool in the fleet`)

// The bench agent: whole servers in file order until it has about 322 tools with the platform's own.
const agentServers = new Set<string>()
let agentCount = PLATFORM_TOOLS.length
for (const s of servers) {
  if (agentCount >= AGENT_TOOLS) break
  const n = fleet.filter((t) => t.server === s).length
  if (agentCount + n > AGENT_TOOLS + 10) continue
  agentServers.add(s)
  agentCount += n
}
const platform: BenchTool[] = PLATFORM_TOOLS.map((t) => ({
  name: t.name,
  description: t.description,
  inputSchema: t.inputSchema,
  server: 'toolroom',
  level: t.level,
  traits: [t.level],
}))
const agentTools = [...platform, ...fleet.filter((t) => agentServers.has(t.server!))]
const agentNames = new Set(agentTools.map((t) => t.name))
const agentQueries = queries.filter((q) => agentNames.has(q.expected))

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]

function measure(index: ToolIndex, set: { expected: string; query: string }[]) {
  let r1 = 0
  let r5 = 0
  let rr = 0
  const misses: string[] = []
  for (const { expected, query } of set) {
    const ranked = index.search(query, { limit: LIMIT }).map((m) => m.name)
    const rank = ranked.indexOf(expected) + 1
    if (rank === 1) r1++
    if (rank >= 1 && rank <= 5) r5++
    if (rank >= 1) rr += 1 / rank
    if (rank < 1 || rank > 5) misses.push(`${query} → want ${expected}, got ${ranked.slice(0, 3).join(', ') || 'nothing'}`)
  }
  // Wall time suffers from a shared machine's other processes; CPU time (process.cpuUsage) much less.
  const times: number[] = []
  const cpu: number[] = []
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const { query } of set) {
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      index.search(query, { limit: LIMIT })
      const wall = performance.now() - t0
      const used = process.cpuUsage(c0)
      if (round === 0) continue
      times.push(wall)
      cpu.push((used.user + used.system) / 1000)
    }
  }
  times.sort((a, b) => a - b)
  cpu.sort((a, b) => a - b)
  const n = set.length
  return {
    n,
    recall1: r1 / n,
    recall5: r5 / n,
    mrr: rr / n,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    max: times.at(-1)!,
    cpuP50: quantile(cpu, 0.5),
    cpuP99: quantile(cpu, 0.99),
    misses,
  }
}

function timedBuild(tools: BenchTool[]) {
  const t0 = performance.now()
  const index = buildToolIndex(tools)
  return { index, ms: performance.now() - t0 }
}

const gc = (globalThis as { gc?: () => void }).gc
function indexBytes(tools: BenchTool[], copies = 20): number | null {
  if (!gc) return null
  gc()
  const before = process.memoryUsage().heapUsed
  const kept = Array.from({ length: copies }, () => buildToolIndex(tools))
  gc()
  const bytes = (process.memoryUsage().heapUsed - before) / copies
  if (kept.length !== copies) throw new Error('unreachable')
  return bytes
}

// What the gateway sends, as lib/gateway/agent-tools.ts (tools/list) and platform-calls.ts (the answers) shape it.
const mcpTool = (t: BenchTool) => ({
  name: t.name,
  description: t.description,
  inputSchema: t.inputSchema,
  annotations: {
    readOnlyHint: t.level === 'read_only',
    destructiveHint: t.level !== 'read_only',
    idempotentHint: t.level === 'read_only',
    openWorldHint: true,
  },
  _meta: { 'toolroom.dev/provenance': `mcp:${t.server}`, 'toolroom.dev/level': t.level, 'toolroom.dev/requiresApproval': t.level === 'financial' },
})
const summary = (t: BenchTool) => ({
  name: t.name,
  description: t.description,
  provenance: `mcp:${t.server}`,
  level: t.level,
  requiresApproval: t.level === 'financial',
  readOnly: t.level === 'read_only',
})
const callAnswer = (value: object) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value })
const tokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4)

const fleetBuild = timedBuild(fleet)
const agentBuild = timedBuild(agentTools)
const onFleet = measure(fleetBuild.index, queries)
const onAgent = measure(agentBuild.index, agentQueries)
const byName = new Map(agentTools.map((t) => [t.name, t]))

const fullList = tokens({ tools: agentTools.map(mcpTool) })
const platformList = tokens({ tools: platform.map(mcpTool) })
let searchTokens = 0
for (const { query } of agentQueries) {
  const found = agentBuild.index.search(query, { limit: LIMIT })
  const search = { method: 'tools/call', params: { name: 'toolroom.list_tools', arguments: { query } } }
  const answer = callAnswer({ tools: found.map((m) => ({ ...summary(byName.get(m.name)!), score: m.score })) })
  const top = byName.get(found[0]?.name ?? '')
  const inspect = { method: 'tools/call', params: { name: 'toolroom.inspect_tool', arguments: { name: top?.name } } }
  const inspected = top ? callAnswer({ ...summary(top), inputSchema: top.inputSchema, annotations: mcpTool(top).annotations }) : {}
  searchTokens += tokens(search) + tokens(answer) + tokens(inspect) + tokens(inspected)
}
const perTask = platformList + searchTokens / agentQueries.length

const pct = (x: number) => x.toFixed(3)
const ms = (x: number) => `${x.toFixed(2)} ms`
console.log(`# Tool search — ${new Date().toISOString()}`)
console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`,
)
console.log(
  `fleet: ${fleet.length} tools on ${servers.length} servers; ${queries.length} labelled tasks; bench agent: ${agentTools.length} tools (${agentServers.size} servers + ${platform.length} platform), ${agentQueries.length} of the tasks`,
)
console.log('')
console.log('| index | tools | tasks | recall@1 | recall@5 | MRR | query p50 | p99 | max | CPU p50 | CPU p99 | build |')
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|')
for (const [label, r, b, n] of [
  ['whole fleet', onFleet, fleetBuild, fleet.length],
  ['bench agent', onAgent, agentBuild, agentTools.length],
] as const)
  console.log(
    `| ${label} | ${n} | ${r.n} | ${pct(r.recall1)} | ${pct(r.recall5)} | ${pct(r.mrr)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${ms(r.cpuP50)} | ${ms(r.cpuP99)} | ${ms(b.ms)} |`,
  )
const bytes = indexBytes(agentTools)
console.log('')
console.log(`index size for the bench agent: ${bytes === null ? 'run with --expose-gc to measure' : `${(bytes / 2 ** 20).toFixed(2)} MiB`}`)
console.log(
  `tokens (chars/4): full tools/list ${fullList}; platform tools' definitions ${platformList} + search + inspect of the top hit ${Math.round(perTask - platformList)} (mean) = ${Math.round(perTask)} per task: ${((1 - perTask / fullList) * 100).toFixed(1)}% fewer`,
)
console.log('')
console.log(`misses (not in the top 5) over the whole fleet: ${onFleet.misses.length}`)
for (const m of onFleet.misses) console.log(`  ${m}`)
