// npm run openapi:client — the typed client the CLI talks to the REST API through: TypeScript types of
// every path, parameter, body and answer, generated with openapi-typescript from the OpenAPI document
// the server serves (lib/api/openapi.ts), and the values of the query parameters its flags name.
// `--check` exits 1 when the committed file is out of date (the unit test
// tests/unit/openapi-document.test.ts does the same).
import fs from 'node:fs'
import { generatedClientTypes, GENERATED_CLIENT_PATH } from './openapi-client-types.mjs'

const text = await generatedClientTypes()
if (process.argv.includes('--check')) {
  const committed = fs.existsSync(GENERATED_CLIENT_PATH) ? fs.readFileSync(GENERATED_CLIENT_PATH, 'utf8') : ''
  if (committed !== text) {
    console.error(`${GENERATED_CLIENT_PATH} is out of date: run npm run openapi:client`)
    process.exit(1)
  }
  console.log(`${GENERATED_CLIENT_PATH} is up to date`)
} else {
  fs.writeFileSync(GENERATED_CLIENT_PATH, text)
  console.log(`wrote ${GENERATED_CLIENT_PATH}`)
}
process.exit(0)
