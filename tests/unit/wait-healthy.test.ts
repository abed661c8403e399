// npm start's health checks (scripts/wait-healthy.mjs): they wait through dropped connections and other statuses,
// and leave no connection open in the server they checked, whose stop would otherwise wait on it.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { waitHealthy } from '@/scripts/wait-healthy.mjs'
import { until } from '../support/until'

const servers: http.Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

async function serve(status: () => number): Promise<{ server: http.Server; url: string; asked: () => number }> {
  let asked = 0
  // Node's default: keep-alive, for as long as its client keeps the connection.
  const server = http.createServer((_, res) => {
    asked++
    res.writeHead(status(), { 'content-type': 'application/json' }).end('{"status":"ok"}')
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/health`, asked: () => asked }
}
const openConnections = (server: http.Server) => new Promise<number>((resolve, reject) => server.getConnections((e, n) => (e ? reject(e) : resolve(n))))

describe("npm start's health checks", () => {
  it('wait through other answers until a 2xx, and keep no connection open in the server', async () => {
    let answers = 0
    const { server, url, asked } = await serve(() => (++answers < 3 ? 503 : 200))
    await waitHealthy(url, { everyMs: 5 })
    expect(asked()).toBe(3)
    // The server closes each connection after its answer; none is left for its stop to wait on.
    await until('the health checks’ connections to close', async () => (await openConnections(server)) === 0, { timeoutMs: 1_000, everyMs: 10 })
  })

  it('go on after a connection dropped without an answer', async () => {
    let tries = 0
    const { server, url } = await serve(() => 200)
    server.removeAllListeners('request')
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => (++tries < 3 ? req.socket.destroy() : res.end('ok')))
    await waitHealthy(url, { everyMs: 5 })
    expect(tries).toBe(3)
  })
})
