// The embedded PostgreSQL of `npm start` (scripts/embedded-postgres.mjs, hosted as `npm start` hosts
// it), in a private directory as `mktemp -d` makes one. As root (containers, CI) the server runs as
// the OS user postgres, which must pass through that directory but never into the data directory:
// PostgreSQL refuses one that is not 0700/0750, so a second start used to fail with "undefined".
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEmbeddedPostgresInOwnGroup } from '@/scripts/embedded-postgres.mjs'
import { freePort } from '@/scripts/free-port.mjs'

async function selectOne(url: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query('SELECT 1 AS one')).rows[0].one
  } finally {
    await client.end()
  }
}

const modeOf = (dir: string) => fs.statSync(dir).mode & 0o7777

describe('embedded PostgreSQL in a private directory', { timeout: 120_000 }, () => {
  let root: string
  let dataDir: string
  let port: number
  const lines: string[] = []
  const start = () => startEmbeddedPostgresInOwnGroup({ dataDir, port, database: 'toolroom', log: (line) => lines.push(line) })

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-pg-')) // 0700, as mktemp -d
    dataDir = path.join(root, '.data', 'pg17')
    port = await freePort()
  })
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

  it('starts, stops and starts again, never opening the data directory to others', async () => {
    const first = await start()
    expect(await selectOne(first.url)).toBe(1)
    await first.stop()
    expect(modeOf(dataDir) & 0o027).toBe(0)

    const second = await start()
    expect(await selectOne(second.url)).toBe(1)
    await second.stop()
    expect(modeOf(dataDir) & 0o027).toBe(0)
  })

  it('repairs a data directory an earlier version left open to others (o+x)', async () => {
    fs.chmodSync(dataDir, 0o701)
    const server = await start()
    expect(await selectOne(server.url)).toBe(1)
    await server.stop()
    expect(modeOf(dataDir)).toBe(0o700)
    expect(lines.join('\n')).toContain(`removed their access to ${dataDir}`)
  })

  it("says why PostgreSQL did not start, in PostgreSQL's own words", async () => {
    const versionFile = path.join(dataDir, 'PG_VERSION')
    const version = fs.readFileSync(versionFile, 'utf8')
    fs.writeFileSync(versionFile, '16\n')
    try {
      const error = await start().then(
        () => null,
        (e: Error) => e,
      )
      expect(error?.message).toMatch(/^embedded PostgreSQL: PostgreSQL did not start in .*: .*FATAL: +database files are incompatible with server/)
      expect(error?.message).not.toMatch(/undefined/)
    } finally {
      fs.writeFileSync(versionFile, version)
    }
  })
})
