// TOOLROOM_ADMIN_TOKEN made an admin API token (or the previous one revoked when the variable changed
// or was unset), as a step of `npm start` (dist/prepare-data.cjs) or alone (dist/ensure-admin-token.cjs).
// Prints one line when something changed.
import { config } from '@/lib/config'
import { ensureEnvAdminToken } from '@/lib/tokens/ensure-env-admin-token'

export async function ensureAdminToken(): Promise<number> {
  try {
    const outcome = await ensureEnvAdminToken(config().TOOLROOM_ADMIN_TOKEN)
    if (outcome === 'created' || outcome === 'replaced') console.log(`TOOLROOM_ADMIN_TOKEN: admin API token ${outcome}`)
    if (outcome === 'revoked') console.log('TOOLROOM_ADMIN_TOKEN is unset: the admin API token it made is revoked')
    return 0
  } catch (e) {
    console.error(`TOOLROOM_ADMIN_TOKEN: ${(e as Error).message}`)
    return 1
  }
}
