import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Unit tests are pure; integration tests talk to a real PostgreSQL (DATABASE_URL, which
// scripts/test.mjs points at a fresh database) and run one file at a time against it.
const root = path.dirname(fileURLToPath(import.meta.url))

export default defineConfig({
  resolve: {
    alias: {
      '@': root,
      // Tests run server modules outside React's server environment: `server-only` would throw there
      // (it is empty only under the react-server condition), so it resolves to its empty module.
      'server-only': path.join(root, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/integration/setup.ts'],
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
