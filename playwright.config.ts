import { defineConfig } from '@playwright/test'

// `npm test` starts the production server on a seeded database and sets E2E_BASE_URL; Chromium is
// Debian's (no browser download).
const baseURL = process.env.E2E_BASE_URL
if (!baseURL) throw new Error('E2E_BASE_URL is not set: run the end-to-end tests with `npm test` (or `npm test e2e`)')

export default defineConfig({
  testDir: 'e2e',
  // Signs in as the demo admin once; specs run with that session unless they make their own.
  globalSetup: './e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json']],
  outputDir: '.data/test-reports/playwright-artifacts',
  use: {
    baseURL,
    storageState: '.data/test-reports/admin-storage-state.json',
    viewport: { width: 1366, height: 768 },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
})
