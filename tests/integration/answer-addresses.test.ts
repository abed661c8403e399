// Cached answers about an agent are kept under its id, whichever address asked (its id, or its name
// in a namespace: lib/effective-tools/subject-ids.ts): an address names the same agent until a change
// touches it, names in two namespaces never share an answer, and no client grows what a process
// remembers by varying what it sends.
import { beforeAll, describe, expect, it } from 'vitest'
import { fleetRoutes } from '@/lib/api/fleet-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { prisma } from '@/lib/db'
import { registryEpoch } from '@/lib/registry/registry-changes'
import { until } from '../support/until'
import { applyManifest, call, resetDatabase, yaml } from './helpers'

const agents = resourceRoutes('Agent')
const agentFleet = fleetRoutes('Agent')

const tool = (name: string, namespace: string) => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${name}, namespace: ${namespace} }
spec: { type: function, description: Does ${name}, inputSchema: { type: object }, sideEffects: { level: read_only } }
`
const agent = (name: string, namespace: string, grants: string[]) => yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${name}, namespace: ${namespace} }
spec: { grants: [${grants.join(', ')}] }
`

/** The acme tools of the answer `GET /api/v1/agents/{idOrName}/effective-tools` gives. */
async function acmeTools(idOrName: string, namespace?: string): Promise<string[]> {
  const query = namespace ? `?namespace=${namespace}` : ''
  const answer = await call(agentFleet.effectiveTools, `/api/v1/agents/${idOrName}/effective-tools${query}`, { params: { id: idOrName } })
  expect(answer.status, answer.text).toBe(200)
  return (JSON.parse(answer.text) as { effectiveTools: { name: string }[] }).effectiveTools.map((t) => t.name).filter((n) => n.startsWith('acme.'))
}

const idOf = async (name: string, namespace: string) => (await prisma.agent.findFirstOrThrow({ where: { namespace, name } })).id

beforeAll(async () => {
  await resetDatabase()
  await until('the registry change listener', () => registryEpoch() !== null)
  await applyManifest([tool('acme.one', 'east'), tool('acme.two', 'east'), tool('acme.one', 'west'), tool('acme.two', 'west')].join('---\n'))
})

describe('answers under every address of an agent', () => {
  it('answers an agent removed and made again under its name as the new one, by name and by id', async () => {
    await applyManifest(agent('phoenix', 'east', ['acme.one']))
    const first = await idOf('phoenix', 'east')
    expect(await acmeTools('phoenix', 'east')).toEqual(['acme.one'])
    expect(await acmeTools(first)).toEqual(['acme.one'])

    const removed = await call(agents.remove, `/api/v1/agents/${first}`, { method: 'DELETE', params: { id: first } })
    expect(removed.status, removed.text).toBeLessThan(300)
    await applyManifest(agent('phoenix', 'east', ['acme.two']))
    const second = await idOf('phoenix', 'east')
    expect(second).not.toBe(first)

    expect(await acmeTools('phoenix', 'east')).toEqual(['acme.two'])
    expect(await acmeTools(second)).toEqual(['acme.two'])
    const gone = await call(agentFleet.effectiveTools, `/api/v1/agents/${first}/effective-tools`, { params: { id: first } })
    expect(gone.status).toBe(404)
  })

  it('keeps the answers of agents named alike in two namespaces apart, a name shaped like an id too', async () => {
    const name = '11111111-1111-4111-8111-111111111111'
    await applyManifest([agent(name, 'east', ['acme.one']), agent(name, 'west', ['acme.two'])].join('---\n'))
    // Neither agent has that id: each namespace's agent of that name answers for it there.
    expect(await acmeTools(name, 'east')).toEqual(['acme.one'])
    expect(await acmeTools(name, 'west')).toEqual(['acme.two'])
    expect(await acmeTools(name, 'east')).toEqual(['acme.one'])
  })

  it('remembers an id once, whatever namespace a client sends with it', async () => {
    await applyManifest(agent('counted', 'east', ['acme.one']))
    const id = await idOf('counted', 'east')
    const remembered = () => (globalThis as { __toolroomSubjectIds?: { ids: Map<string, unknown> } }).__toolroomSubjectIds?.ids.size ?? 0
    await acmeTools(id)
    const before = remembered()
    // The memo is where this test looks: it holds the id asked for (else the count below proves nothing).
    expect(before).toBeGreaterThan(0)
    for (let i = 0; i < 20; i++) expect(await acmeTools(id, `ns-${i}`)).toEqual(['acme.one'])
    expect(await acmeTools(id.toUpperCase(), 'east')).toEqual(['acme.one'])
    expect(remembered()).toBe(before)
  })
})
