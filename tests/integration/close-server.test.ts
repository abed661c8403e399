// Stopping an HTTP server (lib/http/close-server.ts) with a keep-alive client whose answer is still
// being written when the stop begins: the answer arrives whole, and the connection is closed by the
// server once idle, not held until its keep-alive timeout (an hour here, so a close left to it would
// outlast the test).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { closeServer } from '@/lib/http/close-server'
import { until } from '../support/until'

describe('closeServer', () => {
  it('lets an answer in flight finish, then closes its keep-alive connection', async () => {
    let answerStarted!: () => void
    const started = new Promise<void>((resolve) => (answerStarted = resolve))
    let finishAnswer!: () => void
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('first half, ')
      answerStarted()
      finishAnswer = () => res.end('second half')
    })
    server.keepAliveTimeout = 3_600_000
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const agent = new http.Agent({ keepAlive: true })
    try {
      const answer = new Promise<{ body: string; socketClosed: Promise<void> }>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', agent }, (res) => {
          let body = ''
          const socketClosed = new Promise<void>((closed) => res.socket.once('close', () => closed()))
          res.setEncoding('utf8')
          res.on('data', (chunk) => (body += chunk))
          res.on('end', () => resolve({ body, socketClosed }))
        })
        req.on('error', reject)
      })
      await started
      const closed = closeServer(server)
      finishAnswer()
      const { body, socketClosed } = await answer
      expect(body).toBe('first half, second half')
      let ended = false
      void Promise.all([closed, socketClosed]).then(() => (ended = true))
      await until('the server to close the keep-alive connection, idle since its answer ended', () => ended, { timeoutMs: 10_000 })
    } finally {
      agent.destroy()
      server.closeAllConnections()
    }
  })
})
