// `npm run secrets:reencrypt`: re-seal every Secret under TOOLROOM_SECRET_KEY, opening the old ones
// with TOOLROOM_SECRET_KEYS_PREVIOUS. Exits 1 if any secret could not be opened.
import 'dotenv/config'
import { systemContext } from '@/lib/audit/audit-actor'
import { prisma } from '@/lib/db'
import { reencryptSecrets } from '@/lib/secrets/reencrypt-secrets'

const report = await reencryptSecrets(systemContext('secrets:reencrypt'))
console.log(`[secrets] key ${report.keyId}: re-sealed ${report.resealed.length}, already current ${report.current}, failed ${report.failed.length}`)
for (const name of report.resealed) console.log(`[secrets]   re-sealed ${name}`)
for (const f of report.failed) console.error(`[secrets]   FAILED ${f.secret}: ${f.error}`)
await prisma.$disconnect()
process.exit(report.failed.length > 0 ? 1 : 0)
