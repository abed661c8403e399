// A test's own HTTP server on a free loopback port. Closing it ends kept-alive connections too, so a
// client's idle socket cannot hold the close (and the test file) open.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Listening {
  url: string
  close(): Promise<void>
}

/** Listens with a server made elsewhere (the gateway's, say). */
export async function listenOn(server: http.Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export const listen = (handler: http.RequestListener): Promise<Listening> => listenOn(http.createServer(handler))
