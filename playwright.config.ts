import { defineConfig } from '@playwright/test'
import { adminStatePath, WORLD, WORLD_INDEX, WORLDS } from './e2e/support/worlds'

// `npm test` seeds the demo fleet, copies its database once per worker and starts a production server
// on each copy (E2E_WORLDS); each worker runs its specs in its own world (e2e/support/worlds.ts), so
// specs never see each other's data. Chromium is Debian's (no browser download).
//
// Specs and their helpers read their world from the environment, as they would with one server.
process.env.E2E_BASE_URL = WORLD.baseURL
process.env.DATABASE_URL = WORLD.databaseUrl
process.env.E2E_SERVER_LOG = WORLD.serverLog

// `npm start` from nothing, with the demo fleet's endpoints on the fixed ports of its manifest: two of
// these at once would take each other's ports, so they run one at a time (beside the other specs).
const WHOLE_SYSTEM = /\/e2e\/(npm-start|living-demo)\.spec\.ts$/

export default defineConfig({
  testDir: 'e2e',
  // Signs in as the demo admin once per world; specs run with that session unless they make their own.
  globalSetup: './e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // One worker per world: no two workers share a server or a database.
  workers: WORLDS.length,
  // A retry would run a serial block's setup a second time, in a world the first try changed.
  retries: 0,
  reporter: [['list'], ['json']],
  outputDir: '.data/test-reports/playwright-artifacts',
  use: {
    baseURL: WORLD.baseURL,
    storageState: adminStatePath(WORLD_INDEX),
    viewport: { width: 1366, height: 768 },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  // The longest specs first, so that the other worker is not left to wait for them at the end.
  projects: [
    { name: 'whole system', testMatch: WHOLE_SYSTEM, workers: 1 },
    { name: 'worlds', testIgnore: WHOLE_SYSTEM },
  ],
})
