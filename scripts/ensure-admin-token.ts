// Makes TOOLROOM_ADMIN_TOKEN an admin API token (or revokes the previous one when the variable
// changed or was unset): `npm run admin-token:ensure`; `npm start` runs the same step in
// dist/prepare-data.cjs. Prints one line when something changed.
import '@/lib/check-config'
import { prisma } from '@/lib/db'
import { ensureAdminToken } from './steps/ensure-admin-token'

void ensureAdminToken().then(async (code) => {
  await prisma.$disconnect().catch(() => {})
  process.exit(code)
})
