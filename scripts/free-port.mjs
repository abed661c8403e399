// A TCP port on 127.0.0.1 nothing listens on at the moment of asking, for the servers scripts and
// tests start side by side (another process may still take it before ours binds it: callers retry or
// accept that rare race).
import net from 'node:net'

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
