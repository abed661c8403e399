// Run by `npm start` after migrations: makes TOOLROOM_ADMIN_TOKEN an admin API token (or revokes the
// previous one when the variable changed or was unset). Prints one line when something changed.
import '@/lib/check-config'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import { ensureEnvAdminToken } from '@/lib/tokens/ensure-env-admin-token'

ensureEnvAdminToken(config().TOOLROOM_ADMIN_TOKEN)
  .then((outcome) => {
    if (outcome === 'created' || outcome === 'replaced') console.log(`TOOLROOM_ADMIN_TOKEN: admin API token ${outcome}`)
    if (outcome === 'revoked') console.log('TOOLROOM_ADMIN_TOKEN is unset: the admin API token it made is revoked')
    return 0
  })
  .catch((e: Error) => {
    console.error(`TOOLROOM_ADMIN_TOKEN: ${e.message}`)
    return 1
  })
  .then(async (code) => {
    await prisma.$disconnect().catch(() => {})
    process.exit(code)
  })
