// ESLint (flat config): Next.js's rules (React, React hooks and the React Compiler's checks,
// accessibility, core web vitals) with typescript-eslint's recommended set, and Prettier owning all
// formatting (eslint-config-prettier, last, turns the stylistic rules off). `npm run lint` runs it with
// no warnings allowed; `npm test` runs it as its lint suite.
//
// No type-aware rules: they need the whole TypeScript program per run, which took ~2.5 min on the
// CI's 2 cores against ~35 s for these (and `npx tsc --noEmit` already checks the types).
import { defineConfig, globalIgnores } from 'eslint/config'
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'
import prettier from 'eslint-config-prettier/flat'

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // A leading underscore marks a binding kept on purpose: a rest destructuring that drops fields, a callback's unused argument.
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['app/**/*.tsx'],
    rules: {
      // Everything under app/ is a Server Component, rendered once per request: the clock read there is the request's time.
      'react-hooks/purity': 'off',
    },
  },
  prettier,
  globalIgnores([
    '.next/**',
    '.data/**',
    'dist/**',
    'cli/dist/**',
    'lib/generated/**',
    'cli/src/generated/**',
    'next-env.d.ts',
    'test-results/**',
    'playwright-report/**',
  ]),
])
