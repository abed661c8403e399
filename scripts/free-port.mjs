// A TCP port on 127.0.0.1 nothing listens on at the moment of asking, for the servers scripts and
// tests start side by side (another process may still take it before ours binds it: callers retry or
// accept that rare race).
import net from 'node:net'

/** Whether nothing listens on 127.0.0.1:`port` at the moment of asking. @returns {Promise<boolean>} */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address())
      server.close(() => resolve(port))
    })
    server.once('error', reject)
  })
}
