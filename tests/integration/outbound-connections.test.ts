// The guarded fetch keeps one connection for requests made one after another: a body read to its end
// hands its connection back before its reader can send the next request (an image discovery's two
// requests go over one connection, not two).
import http from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parseAddressPolicy } from '@/lib/net/address-policy'
import { createGuardedFetch } from '@/lib/outbound/guarded-fetch'
import { listenOn, type Listening } from '../support/listen'

let server: Listening
const connections: number[] = []

beforeAll(async () => {
  const http1 = http.createServer((req, res) => {
    connections.push((req.socket as { connectionNumber?: number } & typeof req.socket).connectionNumber ?? -1)
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
  })
  let opened = 0
  http1.on('connection', (socket: { connectionNumber?: number }) => void (socket.connectionNumber = ++opened))
  server = await listenOn(http1)
})

afterAll(() => server?.close())

it('requests made one after another, each body read to its end, share one connection', async () => {
  const fetch = createGuardedFetch(parseAddressPolicy('loopback'))
  for (let i = 0; i < 4; i++) expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' })
  expect(await (await fetch(`${server.url}/a2a/tools`, { method: 'POST', body: '{}' })).text()).toBe('{"status":"ok"}')
  expect(connections).toEqual([1, 1, 1, 1, 1])
})
