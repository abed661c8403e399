// Closing a connection whose client is still sending makes the kernel answer with a reset, and a
// reset can destroy our answer (a 413, a 431) in the client's buffers before the client reads it: the
// client then reports ECONNRESET or EPIPE instead of the status that says what to fix. So, as nginx's
// `lingering_close` does, the answer is sent, our side of the connection is shut, and what the client
// still sends is read and dropped, bounded in time and bytes, before the socket is destroyed.
import type http from 'node:http'
import type { Socket } from 'node:net'

export interface LingerLimits {
  /** Give up once the client has sent nothing for this long. */
  idleMs: number
  /** Give up after this long in all. */
  totalMs: number
  /** Give up after this many more bytes have arrived. */
  maxBytes: number
}

const DEFAULT_LINGER: LingerLimits = { idleMs: 500, totalMs: 5_000, maxBytes: 16 * 1024 * 1024 }

/**
 * Shuts the write side of `socket` after `answer`, lets the bytes still arriving be read within
 * `limits`, then destroys it. The reading is done by whoever reads the socket already (Node's HTTP
 * parser reads straight from the handle), so progress is judged by `bytesRead`.
 */
export function lingeringClose(socket: Socket, answer?: string | Buffer, limits: LingerLimits = DEFAULT_LINGER): void {
  if (socket.destroyed) return
  const startBytes = socket.bytesRead
  let lastBytes = startBytes
  const finish = () => {
    clearInterval(poll)
    clearTimeout(total)
    socket.destroy()
  }
  const poll = setInterval(() => {
    const now = socket.bytesRead
    if (now === lastBytes || now - startBytes > limits.maxBytes) finish()
    lastBytes = now
  }, limits.idleMs)
  const total = setTimeout(finish, limits.totalMs)
  socket.once('end', finish)
  socket.once('close', () => (clearInterval(poll), clearTimeout(total)))
  socket.on('error', finish)
  if (answer === undefined) socket.end()
  else socket.end(answer)
}

/**
 * Sends `res` with `connection: close` and closes its connection the lingering way: for answers given
 * before the request's body was read. The body is read and dropped meanwhile (a paused request would
 * stop the socket, and the unread bytes would turn the close into a reset).
 */
export function closeAfterAnswer(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.setHeader('connection', 'close')
  req.removeAllListeners('data')
  req.resume()
  const socket = res.socket
  if (!socket) return
  // Node's server ends a `connection: close` exchange with socket.destroySoon(): linger instead.
  ;(socket as Socket & { destroySoon: () => void }).destroySoon = () => lingeringClose(socket)
}
