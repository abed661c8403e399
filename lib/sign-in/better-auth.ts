// better-auth does the password hashing and sessions (guesses are limited in
// lib/auth/failed-attempts.ts); we give it our one Prisma client and the tables in
// prisma/schema.prisma. Built lazily: `next build` imports route modules without TOOLROOM_SECRET_KEY
// or a database. Configured with the OAuth provider plugin (lib/oauth/oauth-provider.ts), it sits above
// lib/auth and lib/oauth, with everything that goes through it (docs/design/access.md#layers).
import 'server-only'
import { createHash, hkdfSync } from 'node:crypto'
import { betterAuth } from 'better-auth'
import { prismaAdapter } from '@better-auth/prisma-adapter'
import { genericOAuth } from 'better-auth/plugins/generic-oauth'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import { recordAuditEvent } from '@/lib/audit/record-audit-event'
import { toolroomOAuthProvider } from '@/lib/oauth/oauth-provider'
import { oidcProvider } from '@/lib/auth/oidc-config'
import { authSettings } from '@/lib/auth/auth-settings'
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address-header'

export function createAuth() {
  const settings = authSettings()
  const oidc = oidcProvider()
  const { TOOLROOM_PUBLIC_URL, PORT } = config()
  const perAddress = { window: settings.signInWindowSeconds, max: settings.signInAttempts }
  const perKnownAddress = (request: Request) => (request.headers.get(CLIENT_ADDRESS_HEADER) ? perAddress : false)
  return betterAuth({
    appName: 'Toolroom',
    secret: authSecret(),
    // Without a configured public URL, links (OIDC callbacks) follow the host the browser used.
    baseURL: TOOLROOM_PUBLIC_URL ?? { allowedHosts: ['*'], protocol: 'auto', fallback: `http://localhost:${PORT}` },
    // The sign-in route and the tests call the handler from the same process; the browser's origin
    // is checked by our route wrapper, and by better-auth against the request's own host here.
    trustedOrigins: (request) => (request ? [new URL(request.url).origin] : []),
    database: prismaAdapter(prisma, { provider: 'postgresql' }),
    telemetry: { enabled: false },
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 12, maxPasswordLength: 256 },
    session: { expiresIn: settings.sessionSeconds, updateAge: Math.min(settings.sessionSeconds / 2, 24 * 3600) },
    user: {
      additionalFields: {
        role: { type: 'string', required: false, defaultValue: 'viewer', input: false },
        disabledAt: { type: 'date', required: false, input: false },
      },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      // Guesses are limited by failures, per account or per client and address, in one place
      // (lib/auth/failed-attempts.ts: sign-in; lib/oauth/limit-token-failures.ts: the token and
      // revocation endpoints, which check a client's credentials), never per address alone: behind a
      // shared address that counted everyone's successful sign-ins and token requests, and anybody's
      // 20 bogus ones stopped every client. Starting single sign-on and an authorization request are
      // no guesses (the person signs in, or is signed in, to go on). A password change through a
      // stolen session is limited per person there too, and per client address here as before.
      customRules: {
        '/sign-in/*': false,
        '/oauth2/token': false,
        '/oauth2/revoke': false,
        '/oauth2/authorize': false,
        '/change-password': perKnownAddress,
      },
    },
    advanced: { cookiePrefix: 'toolroom', database: { generateId: 'uuid' }, ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] } },
    databaseHooks: {
      session: {
        create: {
          // A disabled account gets no new session, whichever way it signs in.
          before: async (session) => {
            const user = await prisma.user.findUnique({ where: { id: session.userId }, select: { disabledAt: true } })
            return !user?.disabledAt
          },
          // Email sign-ins are recorded by the sign-in route (with failures); this catches OIDC ones.
          after: async (session, context) => {
            if (context?.path === '/sign-in/email') return
            const user = await prisma.user.findUnique({ where: { id: session.userId }, select: { email: true } })
            await recordAuditEvent({
              actor: { kind: 'user', id: session.userId, name: user?.email ?? session.userId },
              action: 'auth.signed_in',
              kind: 'User',
              resourceId: session.userId,
              detail: { method: context?.path ?? 'unknown', ip: session.ipAddress ?? null },
            })
          },
        },
      },
    },
    plugins: [...(oidc ? [genericOAuth({ config: [oidc] })] : []), toolroomOAuthProvider()],
  })
}

export type Auth = ReturnType<typeof createAuth>
const globalForAuth = globalThis as unknown as { toolroomAuth?: Auth }

export function getAuth(): Auth {
  globalForAuth.toolroomAuth ??= createAuth()
  return globalForAuth.toolroomAuth
}

/** better-auth's signing secret, derived from the one key Toolroom already keeps (TOOLROOM_SECRET_KEY). */
function authSecret(): string {
  const key = config().BETTER_AUTH_SECRET ?? config().TOOLROOM_SECRET_KEY
  if (!key) throw new Error('TOOLROOM_SECRET_KEY is not set: sessions cannot be signed (see README, "Access")')
  const derived = hkdfSync('sha256', Buffer.from(key, 'utf8'), createHash('sha256').update('toolroom').digest(), 'better-auth session signing', 32)
  return Buffer.from(derived).toString('base64')
}
