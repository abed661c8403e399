// The gateway's SDK v1 Server takes tools/call requests as checked (lib/gateway/mcp-checked-call.ts):
// its answers must be the stock SDK Server's, result check included, and every request it no longer
// parses is one checkMessage refuses before it gets there.
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { handleCheckedToolCalls } from '@/lib/gateway/mcp-checked-call'
import { checkMessage } from '@/lib/gateway/mcp-messages'
import { MultiplexTransport } from '@/lib/gateway/mcp-transport'

/** What each tool name answers: results the SDK takes, and ones it refuses. */
const RESULTS: Record<string, unknown> = {
  valid: { content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 } },
  'no-content': { structuredContent: { n: 1 } },
  'extra-keys': { content: [{ type: 'text', text: 'ok', stray: true }], isError: false, _meta: { m: 1 }, other: 'kept?' },
  'text-missing': { content: [{ type: 'text' }] },
  'structured-array': { content: [], structuredContent: [1, 2] },
  'is-error-string': { content: [], isError: 'yes' },
  'unknown-block': { content: [{ type: 'hologram', data: 1 }] },
}

async function serverAnswers(install: (server: Server, handler: (name: string) => Promise<Record<string, unknown>>) => void) {
  const t = new MultiplexTransport()
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } })
  server.onerror = () => {}
  install(server, async (name) => RESULTS[name] as Record<string, unknown>)
  await server.connect(t)
  const answers: Record<string, unknown> = {}
  for (const name of Object.keys(RESULTS))
    answers[name] = await t.request({ id: 7, method: 'tools/call', params: { name, arguments: {} } }, { token: '', clientId: 'c', scopes: [] }, 'owner')
  await server.close()
  return answers
}

describe('tools/call taken as checked', () => {
  it('answers every result, good or bad, exactly as the stock SDK Server does', async () => {
    const stock = await serverAnswers((server, handler) => server.setRequestHandler(CallToolRequestSchema, (request) => handler(request.params.name) as never))
    const checked = await serverAnswers((server, handler) => handleCheckedToolCalls(server, (request) => handler(request.params.name)))
    expect(checked).toEqual(stock)
    // The bad ones are refused, not passed on.
    for (const name of ['text-missing', 'structured-array', 'is-error-string', 'unknown-block'])
      expect(checked[name]).toMatchObject({ id: 7, error: { code: -32602, message: expect.stringMatching(/^Invalid tools\/call result: /) } })
    expect(checked.valid).toEqual({ jsonrpc: '2.0', id: 7, result: RESULTS.valid })
  })

  it('sees no request the SDK would refuse: checkMessage refuses each before the Server does', () => {
    const bad = [{ name: 'x', arguments: [1] }, { name: 5 }, { arguments: {} }, { name: 'x', _meta: { progressToken: 1.5 } }, { name: 'x', arguments: 'no' }]
    for (const params of bad) {
      expect(CallToolRequestSchema.safeParse({ method: 'tools/call', params }).success).toBe(false)
      expect(checkMessage('legacy', { jsonrpc: '2.0', id: 1, method: 'tools/call', params })).toMatchObject({
        kind: 'refused',
        answer: { error: { code: -32602 } },
      })
    }
  })
})

describe('the transport a 2025-era request is cancelled through', () => {
  it('aborts a request in flight when it closes, so its handler needs no second signal', async () => {
    const t = new MultiplexTransport()
    const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } })
    server.onerror = () => {}
    let cancelled: AbortSignal | undefined
    let started: () => void
    const running = new Promise<void>((resolve) => (started = resolve))
    handleCheckedToolCalls(server, (_request, extra) => {
      cancelled = (extra.authInfo?.extra as { cancelled: AbortSignal }).cancelled
      started()
      return new Promise((resolve) => cancelled!.addEventListener('abort', () => resolve({ content: [] }), { once: true }))
    })
    await server.connect(t)
    const answer = t.request({ id: 1, method: 'tools/call', params: { name: 'x' } }, { token: '', clientId: 'c', scopes: [] }, 'owner')
    await running
    expect(cancelled?.aborted).toBe(false)
    await t.close()
    expect(cancelled?.aborted).toBe(true)
    expect(await answer).toMatchObject({ id: 1, error: { code: -32603, message: 'the gateway is shutting down' } })
  })
})
