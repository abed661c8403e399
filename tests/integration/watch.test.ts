// Watching an effective set (docs/design/resource-model.md#watch): `?watch=1` streams the current set,
// then one event per change of that set; a change elsewhere sends nothing; a reconnect with the last
// resourceVersion resumes without a repeat; a removed agent ends its watches; each event's object is
// the GET answer's shape.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { agentConfigRoute, fleetRoutes } from '@/lib/api/fleet-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { effectiveToolsAnswer } from '@/lib/api/schemas'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import { registryEpoch } from '@/lib/registry/registry-changes'
import { until } from '../support/until'
import { applyManifest, call, issueAgentCredential, resetDatabase, testAdminToken, yaml } from './helpers'

const agentFleet = fleetRoutes('Agent')

interface WatchEvent {
  event: string
  id?: string
  data: { type: string; resourceVersion: string; etag?: string | null; object?: { effectiveTools: { name: string }[] } | string }
}

/** An open watch: its events as they arrive, read by a parser of the event-stream format. */
interface Watching {
  status: number
  events: WatchEvent[]
  ended: Promise<void>
  stop: () => void
}

const openWatches: Watching[] = []

async function watch(
  agentId: string,
  { query = '', headers = {}, what = 'effective-tools' }: { query?: string; headers?: Record<string, string>; what?: 'effective-tools' | 'config.yaml' } = {},
): Promise<Watching> {
  const abort = new AbortController()
  const request = new Request(`http://toolroom.test/api/v1/agents/${agentId}/${what}?watch=1${query}`, {
    headers: { authorization: `Bearer ${await testAdminToken()}`, ...headers },
    signal: abort.signal,
  })
  const handler = what === 'config.yaml' ? agentConfigRoute : agentFleet.effectiveTools
  const response = await handler(request, { params: Promise.resolve({ id: agentId }) })
  const events: WatchEvent[] = []
  const reading = async () => {
    if (!response.body) return
    const decoder = new TextDecoder()
    let buffer = ''
    const reader = response.body.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        buffer += decoder.decode(value, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const fields = Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]))
          if (fields.event) events.push({ event: fields.event, id: fields.id, data: JSON.parse(fields.data) })
        }
      }
    } catch {
      // aborted by stop()
    }
  }
  const watching: Watching = { status: response.status, events, ended: reading(), stop: () => abort.abort() }
  openWatches.push(watching)
  return watching
}

/** The tools of this file's manifests (platform tools, which every agent has, left out). */
const toolNames = (e: WatchEvent) =>
  (e.data.object as { effectiveTools: { name: string }[] } | undefined)?.effectiveTools
    .map((t) => t.name)
    .filter((n) => n.startsWith('acme.'))
    .sort()

const tool = (name: string) => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: watch }
spec: { type: function, description: Does ${name}, inputSchema: { type: object }, sideEffects: { level: read_only } }
`
const agent = (name: string, grants: string[]) => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${name}, namespace: watch }
spec: { grants: [${grants.join(', ')}] }
`

let triageId: string
let bystanderId: string

beforeAll(async () => {
  await resetDatabase()
  await until('the registry change listener', () => registryEpoch() !== null)
  await applyManifest(
    [tool('acme.lookup'), tool('acme.update'), tool('acme.other'), agent('triage', ['acme.lookup']), agent('bystander', ['acme.other'])].join('---\n'),
  )
  triageId = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'triage' } })).id
  bystanderId = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'bystander' } })).id
})

afterEach(async () => {
  for (const w of openWatches.splice(0)) {
    w.stop()
    await w.ended
  }
})

describe('watching an effective set', () => {
  it('sends the current set, then an event for each change of that set and none for changes elsewhere', async () => {
    const triage = await watch(triageId)
    const bystander = await watch(bystanderId)
    expect(triage.status).toBe(200)
    await until('the first events', () => triage.events.length === 1 && bystander.events.length === 1)
    expect(triage.events[0].event).toBe('ADDED')
    expect(toolNames(triage.events[0])).toEqual(['acme.lookup'])
    expect(triage.events[0].id).toBe(triage.events[0].data.resourceVersion)

    await applyManifest(agent('triage', ['acme.lookup', 'acme.update']))
    await until('the change of triage', () => triage.events.length === 2)
    expect(triage.events[1].event).toBe('MODIFIED')
    expect(toolNames(triage.events[1])).toEqual(['acme.lookup', 'acme.update'])
    expect(triage.events[1].data.resourceVersion).not.toBe(triage.events[0].data.resourceVersion)

    // The bystander's first event after its ADDED is its own change: triage's change sent it nothing.
    await applyManifest(agent('bystander', ['acme.other', 'acme.update']))
    await until('the change of bystander', () => bystander.events.length === 2)
    expect(bystander.events.map((e) => e.event)).toEqual(['ADDED', 'MODIFIED'])
    expect(toolNames(bystander.events[1])).toEqual(['acme.other', 'acme.update'])
    expect(triage.events).toHaveLength(2)

    for (const e of [...triage.events, ...bystander.events]) expect(effectiveToolsAnswer.safeParse(e.data.object).success).toBe(true)
  })

  it('resumes from the last resourceVersion without repeating it, and sends the set at once to a client that missed a change', async () => {
    const first = await watch(triageId)
    await until('the first event', () => first.events.length === 1)
    const seen = first.events[0].data.resourceVersion
    first.stop()
    await first.ended

    const resumed = await watch(triageId, { headers: { 'last-event-id': seen } })
    const missed = await watch(triageId, { query: '&resourceVersion=an-older-version' })
    await until('the set for the client that missed a change', () => missed.events.length === 1)
    expect(missed.events[0]).toMatchObject({ event: 'ADDED', data: { resourceVersion: seen } })
    await applyManifest(agent('triage', ['acme.update']))
    await until('the change', () => resumed.events.length === 1 && missed.events.length === 2)
    expect(resumed.events[0].event).toBe('MODIFIED')
    expect(toolNames(resumed.events[0])).toEqual(['acme.update'])
  })

  it("sends a change inside a tool's input schema, whatever its properties are called", async () => {
    // A property named like the statistics the fingerprint leaves out is still the schema's.
    const schemaTool = (type: string) => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: acme.report, namespace: watch }
spec: { type: function, description: Reports, inputSchema: { type: object, properties: { stats: { type: ${type} } } }, sideEffects: { level: read_only } }
`
    await applyManifest([schemaTool('string'), agent('reporter', ['acme.report'])].join('---\n'))
    const id = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'reporter' } })).id
    const w = await watch(id)
    await until('the first event', () => w.events.length === 1)
    await applyManifest(schemaTool('number'))
    await until('the change of the schema', () => w.events.length === 2)
    expect(w.events[1].event).toBe('MODIFIED')
    const entry = (w.events[1].data.object as { effectiveTools: { name: string; inputSchema: unknown }[] }).effectiveTools.find((t) => t.name === 'acme.report')
    expect(entry?.inputSchema).toEqual({ type: 'object', properties: { stats: { type: 'number' } } })
  })

  it('sends the Policies that newly reach a tool of the set, as a GET then shows them', async () => {
    await applyManifest(agent('guarded', ['acme.lookup']))
    const id = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'guarded' } })).id
    const w = await watch(id)
    await until('the first event', () => w.events.length === 1)
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: lookups-reviewed, namespace: watch }
spec:
  selector: { tools: [acme.lookup] }
  rules: [{ when: "true", effect: require_approval, reason: reviewed }]
`)
    await until('the Policy reaching the set', () => w.events.length === 2)
    const entry = (w.events[1].data.object as { effectiveTools: { name: string; policies?: string[] }[] }).effectiveTools.find((t) => t.name === 'acme.lookup')
    expect(entry?.policies).toEqual(['watch/lookups-reviewed'])
    const plain = await call(agentFleet.effectiveTools, `/api/v1/agents/${id}/effective-tools`, { params: { id } })
    expect(w.events[1].data.object).toEqual(plain.json)
    await prisma.policy.deleteMany({ where: { namespace: 'watch', name: 'lookups-reviewed' } })
  })

  it('ends with DELETED when the agent is removed', async () => {
    await applyManifest(agent('short-lived', ['acme.lookup']))
    const id = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'short-lived' } })).id
    const w = await watch(id)
    await until('the first event', () => w.events.length === 1)
    await call(resourceRoutes('Agent').remove, `/api/v1/agents/${id}`, { method: 'DELETE', params: { id } })
    await w.ended
    expect(w.events.map((e) => e.event)).toEqual(['ADDED', 'DELETED'])
  })

  it('refuses what it cannot watch with a problem, before any stream opens', async () => {
    const unknown = await call(agentFleet.effectiveTools, '/api/v1/agents/watch%2Fnobody/effective-tools?watch=1', { params: { id: 'nobody' } })
    expect(unknown.status).toBe(404)
    const bad = await call(agentFleet.effectiveTools, `/api/v1/agents/${triageId}/effective-tools?watch=yes`, { params: { id: triageId } })
    expect(bad.status).toBe(400)
    expect(bad.json.errors[0]).toMatchObject({ field: 'watch' })
    const long = await call(agentFleet.effectiveTools, `/api/v1/agents/${triageId}/effective-tools?watch=1&resourceVersion=${'x'.repeat(65)}`, {
      params: { id: triageId },
    })
    expect(long.status).toBe(400)

    process.env.TOOLROOM_WATCH_STREAMS = '1'
    reloadConfig()
    try {
      await watch(triageId)
      const over = await call(agentFleet.effectiveTools, `/api/v1/agents/${triageId}/effective-tools?watch=1`, { params: { id: triageId } })
      expect(over.status).toBe(429)
      expect(over.json.detail).toMatch(/limit of 1 watches \(TOOLROOM_WATCH_STREAMS\)/)
    } finally {
      delete process.env.TOOLROOM_WATCH_STREAMS
      reloadConfig()
    }
  })

  it('answers a plain GET with its ETag as before, and a watch with none', async () => {
    const plain = await call(agentFleet.effectiveTools, `/api/v1/agents/${triageId}/effective-tools`, { params: { id: triageId } })
    expect(plain.headers.get('etag')).toMatch(/^W\//)
    const w = await watch(triageId)
    expect(w.status).toBe(200)
    await until('the first event', () => w.events.length === 1)
  })

  it('never sends a set older than the version it is sent under: a set a GET cached before a change is not taken for the version read after it', async () => {
    await applyManifest(agent('cached', ['acme.lookup']))
    const id = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'cached' } })).id
    // A GET caches the set.
    await call(agentFleet.effectiveTools, `/api/v1/agents/${id}/effective-tools`, { params: { id } })
    // A change committed whose notification has not arrived yet (here: it never does), as between a
    // commit and the NOTIFY that follows it.
    await prisma.$transaction([
      prisma.$executeRaw`SET LOCAL session_replication_role = replica`,
      prisma.$executeRaw`UPDATE "Agent" SET spec = jsonb_set(spec::jsonb, '{grants}', '["acme.lookup", "acme.update"]')::json WHERE id = ${id}`,
    ])
    const w = await watch(id)
    await until('the first event', () => w.events.length === 1)
    // Its version is of the reads made now, and so is its set: the cached set was not sent under it. Had
    // it been, the change's announcement would find the version unchanged, and the older set would stay.
    expect(toolNames(w.events[0])).toEqual(['acme.lookup', 'acme.update'])
  })

  it("answers a notice's GET by namespace and name with the announced set, as by id: one cached answer for every address", async () => {
    await applyManifest(agent('addressed', ['acme.lookup']))
    const id = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'addressed' } })).id
    const byName = async () => {
      const answer = await call(agentFleet.effectiveTools, `/api/v1/agents/addressed/effective-tools?namespace=watch`, { params: { id: 'addressed' } })
      return (answer.json as { effectiveTools: { name: string }[] }).effectiveTools.map((t) => t.name).filter((n) => n.startsWith('acme.'))
    }
    // A GET by name caches the set.
    expect(await byName()).toEqual(['acme.lookup'])
    // A change committed whose announcement has not arrived (here: never does).
    await prisma.$transaction([
      prisma.$executeRaw`SET LOCAL session_replication_role = replica`,
      prisma.$executeRaw`UPDATE "Agent" SET spec = jsonb_set(spec::jsonb, '{grants}', '["acme.update"]')::json WHERE id = ${id}`,
    ])
    const w = await watch(id, { query: '&events=notices' })
    await until('the first notice', () => w.events.length === 1)
    // The notice's version is of the change; so is what the GET by name answers, from the answer the
    // watch computed (kept under the agent's id, whichever address asks).
    expect(await byName()).toEqual(['acme.update'])
  })

  it("watches an agent's config.yaml: a server marked for direct access appears in the next event's text", async () => {
    await applyManifest(agent('configured', ['acme.lookup']))
    const id = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'configured' } })).id
    const w = await watch(id, { what: 'config.yaml' })
    expect(w.status).toBe(200)
    await until('the first event', () => w.events.length === 1)
    expect(w.events[0].data.object).toMatch(/^tools:/m)
    expect(w.events[0].data.object).not.toContain('docs-direct')
    await applyManifest(
      [
        yaml`
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: docs-direct, namespace: watch }
spec: { endpoint: "http://127.0.0.1:4801/mcp", directAccess: true }
`,
        yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: configured, namespace: watch }
spec: { grants: [acme.lookup], languageTools: [docs-direct] }
`,
      ].join('---\n'),
    )
    await until('the change', () => w.events.length === 2)
    expect(w.events[1].event).toBe('MODIFIED')
    expect(w.events[1].data.object).toContain('docs-direct')

    // An agent's credential watches its own config.yaml, never another's.
    const other = await issueAgentCredential(triageId)
    const refused = await call(agentConfigRoute, `/api/v1/agents/${id}/config.yaml?watch=1`, { params: { id }, as: { token: other } })
    expect(refused.status).toBe(403)
  })

  it('sends notices on request: the version and the tag a GET then carries, and that GET answers the announced set', async () => {
    await applyManifest([agent('noticed', ['acme.lookup']), agent('unmoved', ['acme.other'])].join('---\n'))
    const id = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'noticed' } })).id
    const unmovedId = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'unmoved' } })).id
    const full = await watch(id)
    const w = await watch(id, { query: '&events=notices' })
    const bystander = await watch(unmovedId, { query: '&events=notices' })
    await until('the first events', () => full.events.length === 1 && w.events.length === 1 && bystander.events.length === 1)
    expect(w.events[0].event).toBe('ADDED')
    expect(w.events[0].data).not.toHaveProperty('object')
    // The same resourceVersion as the watch that carries the set: one fingerprint, two event forms.
    expect(w.events[0].data.resourceVersion).toBe(full.events[0].data.resourceVersion)
    expect(w.events[0].id).toBe(w.events[0].data.resourceVersion)
    const held = await call(agentFleet.effectiveTools, `/api/v1/agents/${id}/effective-tools`, { params: { id } })
    expect(held.headers.get('etag')).toBe(w.events[0].data.etag)
    const unchanged = await call(agentFleet.effectiveTools, `/api/v1/agents/${id}/effective-tools`, {
      params: { id },
      headers: { 'if-none-match': w.events[0].data.etag! },
    })
    expect(unchanged.status).toBe(304)

    await applyManifest(agent('noticed', ['acme.lookup', 'acme.update']))
    await until('the change', () => w.events.length === 2 && full.events.length === 2)
    expect(w.events[1]).toMatchObject({ event: 'MODIFIED', data: { type: 'MODIFIED', resourceVersion: full.events[1].data.resourceVersion } })
    expect(w.events[1].data.resourceVersion).not.toBe(w.events[0].data.resourceVersion)
    expect(w.events[1].data.etag).not.toBe(w.events[0].data.etag)
    // The consumer follows with the tag it holds: the answer is the announced set, under the announced tag.
    const followed = await call(agentFleet.effectiveTools, `/api/v1/agents/${id}/effective-tools`, {
      params: { id },
      headers: { 'if-none-match': held.headers.get('etag')! },
    })
    expect(followed.status).toBe(200)
    expect(followed.headers.get('etag')).toBe(w.events[1].data.etag)
    expect(followed.json).toEqual(full.events[1].data.object)
    // The other agent's set did not change: its notices watch heard nothing.
    expect(bystander.events).toHaveLength(1)

    // Resuming from the version announced sends nothing; from an older one, the notice at once.
    const resumed = await watch(id, { query: `&events=notices&resourceVersion=${w.events[1].data.resourceVersion}` })
    const missed = await watch(id, { query: `&events=notices&resourceVersion=${w.events[0].data.resourceVersion}` })
    await until('the notice for the client that missed a change', () => missed.events.length === 1)
    expect(missed.events[0].data).toMatchObject({ type: 'ADDED', resourceVersion: w.events[1].data.resourceVersion })
    expect(resumed.events).toHaveLength(0)

    await call(resourceRoutes('Agent').remove, `/api/v1/agents/${id}`, { method: 'DELETE', params: { id } })
    await w.ended
    expect(w.events.map((e) => e.event)).toEqual(['ADDED', 'MODIFIED', 'DELETED'])
  })

  it('sends nothing for a change the watched agent itself went through that leaves its set as it was, in either form', async () => {
    await applyManifest(agent('relabelled', ['acme.lookup']))
    const id = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'relabelled' } })).id
    const full = await watch(id)
    const noticed = await watch(id, { query: '&events=notices' })
    await until('the first events', () => full.events.length === 1 && noticed.events.length === 1)
    // A label is the agent's, not its set's: the feed looks at the agent again and finds the same fingerprint.
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: relabelled, namespace: watch, labels: { team: blue } }
spec: { grants: [acme.lookup] }
`)
    // Then a change of the set: the first event either watch gets after its ADDED must be this one.
    await applyManifest(yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: relabelled, namespace: watch, labels: { team: blue } }
spec: { grants: [acme.lookup, acme.update] }
`)
    await until('the change of the set', () => full.events.length === 2 && noticed.events.length === 2)
    expect(toolNames(full.events[1])).toEqual(['acme.lookup', 'acme.update'])
    expect(noticed.events[1].data.resourceVersion).toBe(full.events[1].data.resourceVersion)
  })

  it("sends notices of an agent's config.yaml, whose tag is the one its GET carries", async () => {
    await applyManifest(agent('configured-noticed', ['acme.lookup']))
    const id = (await prisma.agent.findFirstOrThrow({ where: { namespace: 'watch', name: 'configured-noticed' } })).id
    const w = await watch(id, { what: 'config.yaml', query: '&events=notices' })
    await until('the first event', () => w.events.length === 1)
    expect(w.events[0].data).not.toHaveProperty('object')
    const plain = await call(agentConfigRoute, `/api/v1/agents/${id}/config.yaml`, { params: { id } })
    expect(plain.headers.get('etag')).toBe(w.events[0].data.etag)
  })

  it('refuses a malformed events parameter with a problem naming it', async () => {
    const bad = await call(agentFleet.effectiveTools, `/api/v1/agents/${triageId}/effective-tools?watch=1&events=everything`, { params: { id: triageId } })
    expect(bad.status).toBe(400)
    expect(bad.contentType).toMatch(/^application\/problem\+json/)
    // Named as a known parameter with its values, not refused as an unknown field.
    expect(bad.json.errors[0]).toMatchObject({ field: 'events' })
    expect(bad.json.errors[0].rule).not.toBe('unknown-field')
    expect(bad.json.errors[0].message).toMatch(/notices/)
  })
})
