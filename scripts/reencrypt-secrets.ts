// `npm run secrets:reencrypt`: re-seal every Secret and every other sealed value under TOOLROOM_SECRET_KEY,
// opening the old ones with TOOLROOM_SECRET_KEYS_PREVIOUS. Exits 1 if any could not be opened.
import 'dotenv/config'
import '@/lib/check-config'
import { systemContext } from '@/lib/audit/audit-actor'
import { prisma } from '@/lib/db'
import { reencryptSecrets } from '@/lib/secrets/reencrypt-secrets'

async function main(): Promise<number> {
  const report = await reencryptSecrets(systemContext('secrets:reencrypt'))
  console.log(`[secrets] key ${report.keyId}: re-sealed ${report.resealed.length}, already current ${report.current}, failed ${report.failed.length}`)
  for (const name of report.resealed) console.log(`[secrets]   re-sealed ${name}`)
  for (const [store, count] of Object.entries(report.others)) console.log(`[secrets]   re-sealed ${count} of ${store}`)
  for (const f of report.failed) console.error(`[secrets]   FAILED ${f.secret}: ${f.error}`)
  await prisma.$disconnect()
  return report.failed.length > 0 ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  async (error) => {
    console.error('[secrets] re-encryption failed:', error.message ?? error)
    await prisma.$disconnect()
    process.exit(1)
  },
)
