import { expect, test } from '@playwright/test'
import { countStateRows, failuresOf, formatSummary, prepareFuzz, runFuzz, stateGrowth } from '../scripts/fuzz/fuzz.mjs'

// A seeded sample of `npm run fuzz` (SECURITY.md, "Keeping it closed") against the e2e server: REST
// operations from the OpenAPI document and JSON-RPC for /mcp from the MCP schema, as an admin token,
// an agent credential and nobody. Every oracle of the fuzzer must hold (no 5xx, no timeout, no
// dropped connection, no internal -32603, no success a route's contract does not admit, no internal
// origin, not cut short), and the anonymous requests add no OauthResource row. Safe mode: this
// database is shared with the other specs, so nothing it holds is changed (changing requests aim at
// made-up ids or carry bodies that cannot be valid; Apply is a dry run; the agent calls only
// read-only platform tools). The server is the gateway front with Next.js behind it, as `npm start`
// runs them, so every class of hostile input is sent, broken path escapes and TRACE included.
// Each run draws its own seed (printed): FUZZ_SEED=<seed> replays it, as `npm run fuzz -- --seed` does.
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))

test('a seeded fuzz sample holds every oracle', async ({ page, baseURL }) => {
  test.setTimeout(240_000)
  console.log(`fuzz sample: seed ${SEED} (replay: FUZZ_SEED=${SEED} npm test e2e fuzz.spec)`)
  const made = await page.request.post('/api/v1/tokens', {
    headers: { origin: baseURL! },
    data: { name: `e2e-fuzz-${Date.now()}`, scopes: ['read', 'write', 'approve', 'admin'], expiresInDays: 1 },
  })
  expect(made.status(), await made.text()).toBe(201)
  const setup = await prepareFuzz({ baseUrl: baseURL!, adminToken: (await made.json()).token, safe: true })
  const rowsBefore = await countStateRows(process.env.DATABASE_URL)
  const stats = await runFuzz(setup, { seed: SEED, count: 300, concurrency: 2, timeoutMs: 10_000 })
  const grown = stateGrowth(rowsBefore, await countStateRows(process.env.DATABASE_URL))
  const summary = `seed ${SEED}\n${formatSummary(stats)}`
  console.log(summary)
  expect(stats.sent).toBe(300)
  expect(stats.byChannel.mcp).toBeGreaterThan(50)
  expect(stats.operations).toBeGreaterThan(60)
  expect(stats.generatorErrors, summary).toEqual([])
  expect(stats.findings, summary).toEqual([])
  expect(failuresOf(stats), summary).toEqual([])
  expect(grown, summary).toEqual([])
})
