import { expect, test } from '@playwright/test'
import { formatSummary, prepareFuzz, runFuzz } from '../scripts/fuzz/fuzz.mjs'

// A seeded sample of `npm run fuzz` (SECURITY.md, "Keeping it closed") against the e2e server: REST
// operations from the OpenAPI document and JSON-RPC for /mcp from the MCP schema, as an admin token,
// an agent credential and nobody. No 5xx, no timeouts. Safe mode: this database is shared with the
// other specs, so nothing it holds is changed (changing requests aim at made-up ids or carry bodies
// that cannot be valid; Apply is a dry run; the agent calls only read-only platform tools). The
// server is the gateway front with Next.js behind it, as `npm start` runs them, so every class of
// hostile input is sent, broken path escapes and TRACE included.

test('a seeded fuzz sample gets no 5xx and no timeouts', async ({ page, baseURL }) => {
  test.setTimeout(240_000)
  const made = await page.request.post('/api/v1/tokens', {
    headers: { origin: baseURL! },
    data: { name: `e2e-fuzz-${Date.now()}`, scopes: ['read', 'write', 'approve', 'admin'], expiresInDays: 1 },
  })
  expect(made.status(), await made.text()).toBe(201)
  const setup = await prepareFuzz({ baseUrl: baseURL!, adminToken: (await made.json()).token, safe: true })
  const stats = await runFuzz(setup, { seed: 2026, count: 300, concurrency: 2, timeoutMs: 10_000 })
  const summary = formatSummary(stats)
  console.log(summary)
  expect(stats.sent).toBe(300)
  expect(stats.byChannel.mcp).toBeGreaterThan(50)
  expect(stats.operations).toBeGreaterThan(60)
  expect(stats.generatorErrors, summary).toEqual([])
  expect(stats.findings, summary).toEqual([])
  expect(stats.connectionErrors, summary).toBe(0)
})
