// The embedded PostgreSQL's port when TOOLROOM_EMBEDDED_PG_PORT is unset (scripts/embedded-pg-port.mjs):
// two data directories (two checkouts side by side) run their servers at once on ports of their own,
// even with the usual port held by someone else; a second start of one data directory finds its
// port again; a remembered port someone took since moves to a free one; a configured port is used as it is.
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_EMBEDDED_PG_PORT, embeddedDatabaseUrl, rememberedEmbeddedPgPort } from '@/scripts/embedded-db-url.mjs'
import { chooseEmbeddedPgPort } from '@/scripts/embedded-pg-port.mjs'
import { startEmbeddedPostgres } from '@/scripts/embedded-postgres.mjs'

const root = path.resolve(`.data/test-reports/embedded-pg-port-${process.pid}-${Date.now()}`)
const servers: Array<{ stop(): Promise<void> }> = []
const held: net.Server[] = []

/** Listens on `port` (0: any) as another program would; resolves the port, or null when someone else has it already. */
function hold(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(null))
    server.listen(port, '127.0.0.1', () => {
      held.push(server)
      resolve((server.address() as net.AddressInfo).port)
    })
  })
}

async function answers(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<{ port: number }>(`SELECT current_setting('port')::int AS port`)).rows[0].port
  } finally {
    await client.end()
  }
}

async function start(dataDir: string) {
  const port = await chooseEmbeddedPgPort(dataDir, undefined)
  const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg17'), port, database: 'toolroom' })
  servers.push(server)
  return { port, server }
}

afterAll(async () => {
  for (const s of servers) await s.stop()
  for (const h of held) await new Promise((resolve) => h.close(resolve))
  fs.rmSync(root, { recursive: true, force: true })
})

describe('the embedded PostgreSQL port of a data directory', () => {
  it('lets two data directories run at once, with the usual port held by another program, and each finds its port again', async () => {
    // Whoever has the usual port (this test, or something else on the machine), neither may take it.
    await hold(DEFAULT_EMBEDDED_PG_PORT)
    const first = path.join(root, 'first')
    const second = path.join(root, 'second')
    const a = await start(first)
    const b = await start(second)
    expect(a.port).not.toBe(DEFAULT_EMBEDDED_PG_PORT)
    expect(b.port).not.toBe(DEFAULT_EMBEDDED_PG_PORT)
    expect(b.port).not.toBe(a.port)
    expect(await answers(a.server.url)).toBe(a.port)
    expect(await answers(b.server.url)).toBe(b.port)
    expect(rememberedEmbeddedPgPort(first)).toBe(a.port)
    expect(rememberedEmbeddedPgPort(second)).toBe(b.port)

    // Started again (stopped first, as a second `npm start` finds it), the first finds its own port.
    await a.server.stop()
    const again = await start(first)
    expect(again.port).toBe(a.port)
    expect(await answers(again.server.url)).toBe(a.port)

    // The Prisma CLI's address (prisma/env.ts) is the remembered one too.
    const before = { dir: process.env.TOOLROOM_DATA_DIR, port: process.env.TOOLROOM_EMBEDDED_PG_PORT }
    try {
      process.env.TOOLROOM_DATA_DIR = second
      delete process.env.TOOLROOM_EMBEDDED_PG_PORT
      expect(embeddedDatabaseUrl()).toBe(`postgresql://postgres:postgres@127.0.0.1:${b.port}/toolroom`)
    } finally {
      for (const [name, value] of [
        ['TOOLROOM_DATA_DIR', before.dir],
        ['TOOLROOM_EMBEDDED_PG_PORT', before.port],
      ] as const)
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
    }
  }, 120_000)

  it('moves a remembered port someone else took since to a free one, and remembers that', async () => {
    const dir = path.join(root, 'taken')
    const taken = (await hold(0))!
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, 'embedded-pg-port.json'), JSON.stringify({ port: taken }))
    const port = await chooseEmbeddedPgPort(dir, undefined)
    expect(port).not.toBe(taken)
    expect(rememberedEmbeddedPgPort(dir)).toBe(port)
  })

  it('uses TOOLROOM_EMBEDDED_PG_PORT as it is, and remembers nothing for it', async () => {
    const dir = path.join(root, 'configured')
    expect(await chooseEmbeddedPgPort(dir, 55999)).toBe(55999)
    expect(rememberedEmbeddedPgPort(dir)).toBeUndefined()
  })
})
