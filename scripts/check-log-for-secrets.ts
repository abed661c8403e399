// Searches a log file for the values of every Secret in the database (DATABASE_URL, opened with
// TOOLROOM_SECRET_KEY), in plain and base64 forms. `npm test` runs it on the web server's output
// after the end-to-end tests; it prints what it checked and exits 1 naming any Secret that leaked.
import fs from 'node:fs'
import { prisma } from '@/lib/db'
import { openSecretValues } from '@/lib/secrets/encryption'
import { MIN_MASKED_LENGTH } from '@/lib/secrets/mask-secret-values'

async function main(): Promise<number> {
  const file = process.argv[2]
  if (!file || !fs.existsSync(file)) {
    console.error(`[log-check] no log file at ${file}`)
    return 1
  }
  const log = fs.readFileSync(file, 'utf8')
  const leaked: string[] = []
  let values = 0
  for (const secret of await prisma.secret.findMany()) {
    for (const [key, value] of Object.entries(openSecretValues(secret.ciphertext, secret.keyId))) {
      if (value.length < MIN_MASKED_LENGTH) continue
      values++
      const b64 = Buffer.from(value).toString('base64')
      if ([value, b64, b64.replace(/=+$/, '')].some((form) => log.includes(form))) leaked.push(`${secret.namespace}/${secret.name} key ${key}`)
    }
  }
  await prisma.$disconnect()
  console.log(
    `[log-check] ${values} secret values searched for in ${file} (${log.length} bytes): ${leaked.length ? `LEAKED: ${leaked.join(', ')}` : 'none found'}`,
  )
  return leaked.length || values === 0 ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error('[log-check] failed:', error)
    process.exit(1)
  },
)
