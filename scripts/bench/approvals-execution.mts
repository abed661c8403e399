// Approve-to-execution for bench:approvals: an agent (official SDK client) calls a financial REST
// tool through the gateway N times; each request is approved through the REST API of the running
// portal, one at a time, and the time until the upstream receives the call is measured. A real
// worker process runs the approved calls. Prints {"samples": [ms, …], "afterEffect": [ms, …]} on its
// last line: from the approval's request, and from the moment the decision took effect.
import { spawn } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createAgentCredential } from '@/lib/agent-credentials/agent-credentials'
import { prisma } from '@/lib/db'
import { createGatewayServer } from '@/lib/gateway/server'
import { applyManifestText } from '@/lib/apply/apply-documents'
import { systemContext } from '@/lib/audit/audit-actor'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'

const N = Number(process.env.BENCH_APPROVALS ?? 40)
const portal = process.env.PORTAL_URL!
const apiHeaders = { 'content-type': 'application/json', ...(process.env.BENCH_API_TOKEN ? { authorization: `Bearer ${process.env.BENCH_API_TOKEN}` } : {}) }

const arrivals = new Map<number, number>()
const upstream = http.createServer((req, res) => {
  let body = ''
  req.on('data', (d) => (body += d))
  req.on('end', () => {
    arrivals.set(JSON.parse(body || '{}').n, performance.timeOrigin + performance.now())
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
  })
})
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r))
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`

await applyManifestText(
  `apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: financial }
spec: { level: financial, requiresApproval: true }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: pay.charge, namespace: default }
spec:
  type: rest
  description: Charges a card
  endpoint: { method: POST, url: "${upstreamUrl}/charge" }
  inputSchema: { type: object, required: [n], properties: { n: { type: integer } } }
  sideEffects: { level: financial }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: payer, namespace: default }
spec: { grants: [pay.charge] }
`,
  { audit: systemContext('bench'), caller: 'system' },
)
const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'default', name: 'payer' } } })
const { token } = await createAgentCredential(agent as never, { name: 'bench' }, { kind: 'system', name: 'bench' })

const gateway = createGatewayServer({ port: 0 })
await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r))
const client = new Client({ name: 'bench-agent', version: '1' })
await client.connect(
  new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  }),
)

const worker = spawn(process.execPath, [...TSX_NODE_ARGS, 'workers/main.ts'], { stdio: ['ignore', 'ignore', 'inherit'], env: process.env })
await new Promise((r) => setTimeout(r, 3000))

const samples: number[] = []
const afterEffect: number[] = []
try {
  for (let n = 1; n <= N; n++) {
    const answer = await client.callTool({ name: 'pay.charge', arguments: { n } })
    const callId = (answer.structuredContent as { callId: string }).callId
    const approval = await prisma.approvalRequest.findUniqueOrThrow({ where: { callId } })
    // Decisions come at random moments relative to the workers' polling, as people's do.
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 300))
    const t0 = performance.timeOrigin + performance.now()
    const res = await fetch(`${portal}/api/v1/approvals/${approval.id}/approve`, { method: 'POST', headers: apiHeaders, body: '{}' })
    if (!res.ok) throw new Error(`approve: ${res.status} ${await res.text()}`)
    const deadline = Date.now() + 10_000
    while (!arrivals.has(n) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2))
    if (!arrivals.has(n)) throw new Error(`call ${n} was not executed within 10 s of its approval`)
    samples.push(arrivals.get(n)! - t0)
    // The decision takes effect after the undo window (docs/design/approvals.md): the worker may run
    // the call only from then, so that is where its own delay starts.
    const { effectiveAt } = await prisma.approvalRequest.findUniqueOrThrow({ where: { id: approval.id }, select: { effectiveAt: true } })
    if (effectiveAt) afterEffect.push(arrivals.get(n)! - effectiveAt.getTime())
  }
} finally {
  const stopped = new Promise((r) => worker.once('exit', r))
  worker.kill('SIGTERM')
  await stopped
  await client.close()
  gateway.close()
  upstream.close()
  await prisma.$disconnect()
}
console.log(JSON.stringify({ samples, afterEffect }))
process.exit(0)
