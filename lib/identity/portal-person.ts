// Which portal account a person is (docs/design/access.md#connected-accounts): the one place that
// maps the person the gateway sees (issuer, subject) to a Toolroom user, so a person's own
// connections (made signed in to the portal) are found for the calls made for them, and so a disabled
// account stops agents acting for that person (token exchange, lib/oauth/exchange-token.ts).
//  - a person who consented to an OAuth client here is Toolroom's own: the subject is the user id
//    (consentingPerson in ./person.ts);
//  - a person named by the organisation's IdP is the user who signs in to the portal through that same
//    IdP (TOOLROOM_OIDC_ISSUER), by the account better-auth linked for their subject.
// Anyone else has no portal account, and so no Connections page.
import 'server-only'
import { config } from '@/lib/config'
import { OIDC_PROVIDER_ID } from '@/lib/auth/oidc-config'
import { prisma } from '@/lib/db'
import type { Person } from './person'

export interface PortalUser {
  id: string
  name: string
  disabledAt: Date | null
}

const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '')

/** Whether the person's issuer is the IdP people sign in to the portal with, so their subject is a linked account's. */
function signsInWith(issuer: string): boolean {
  const signInIssuer = config().TOOLROOM_OIDC_ISSUER
  return !!signInIssuer && sameIssuer(signInIssuer, issuer)
}

const signInAccount = (subject: string) => ({ providerId: OIDC_PROVIDER_ID, accountId: subject })

export async function portalUserOf(person: Pick<Person, 'issuer' | 'subject' | 'via'>): Promise<PortalUser | null> {
  const select = { id: true, name: true, disabledAt: true } as const
  if (person.via === 'oauth_consent') return prisma.user.findUnique({ where: { id: person.subject }, select })
  if (signsInWith(person.issuer)) {
    const account = await prisma.account.findFirst({ where: signInAccount(person.subject), select: { user: { select } } })
    return account?.user ?? null
  }
  return null
}

/**
 * The Toolroom account of a person an IdP vouches for (token exchange), so disabling it stops agents
 * acting for them: their portal user (above), or one with their email. A match only ever refuses
 * more (a disabled account); it grants nothing, which is why an email is enough here and not for
 * finding a person's connections. Two accounts (one by sign-in, one by email): disabled if either is.
 */
export async function toolroomAccountOf(person: Pick<Person, 'issuer' | 'subject' | 'email'>): Promise<{ id: string; disabled: boolean } | null> {
  const users = await prisma.user.findMany({
    where: {
      OR: [
        ...(signsInWith(person.issuer) ? [{ accounts: { some: signInAccount(person.subject) } }] : []),
        ...(person.email ? [{ email: { equals: person.email, mode: 'insensitive' as const } }] : []),
      ],
    },
    select: { id: true, disabledAt: true },
    take: 2,
  })
  if (users.length === 0) return null
  const disabled = users.find((u) => u.disabledAt !== null)
  return { id: (disabled ?? users[0]).id, disabled: disabled !== undefined }
}

/**
 * The portal's origin for addresses handed to a person (the Connections page): TOOLROOM_PUBLIC_URL,
 * or the origin a consenting person's client reached Toolroom at (Toolroom's issuer is `<origin>/api/auth`).
 */
export function portalOriginFor(person: Pick<Person, 'issuer' | 'via'>): string | null {
  const configured = config().TOOLROOM_PUBLIC_URL
  if (configured) return new URL(configured).origin
  return person.via === 'oauth_consent' && URL.canParse(person.issuer) ? new URL(person.issuer).origin : null
}
