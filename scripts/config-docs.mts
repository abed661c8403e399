// npm run docs:config — rewrites README.md's variable tables from lib/config.ts, where every variable
// is declared with its rule, default and meaning. `--check` exits 1 when README.md is out of date (the
// unit test tests/unit/config.test.ts does the same).
import fs from 'node:fs'
import { README_PATH, withConfigTables } from './config-tables.mjs'

const readme = fs.readFileSync(README_PATH, 'utf8')
const text = withConfigTables(readme)
if (process.argv.includes('--check')) {
  if (text !== readme) {
    console.error(`${README_PATH}'s variable tables are out of date: run npm run docs:config`)
    process.exit(1)
  }
  console.log(`${README_PATH}'s variable tables are up to date`)
} else if (text !== readme) {
  fs.writeFileSync(README_PATH, text)
  console.log(`wrote the variable tables of ${README_PATH}`)
} else console.log(`${README_PATH}'s variable tables are up to date`)
