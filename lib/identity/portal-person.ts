// Which portal account a person is (docs/design/access.md#connected-accounts): the one place that
// maps the person the gateway sees (issuer, subject) to a Toolroom user, so a person's own
// connections (made signed in to the portal) are found for the calls made for them.
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

export async function portalUserOf(person: Pick<Person, 'issuer' | 'subject' | 'via'>): Promise<PortalUser | null> {
  const select = { id: true, name: true, disabledAt: true } as const
  if (person.via === 'oauth_consent') return prisma.user.findUnique({ where: { id: person.subject }, select })
  const signInIssuer = config().TOOLROOM_OIDC_ISSUER
  if (signInIssuer && sameIssuer(signInIssuer, person.issuer)) {
    const account = await prisma.account.findFirst({ where: { providerId: OIDC_PROVIDER_ID, accountId: person.subject }, select: { user: { select } } })
    return account?.user ?? null
  }
  return null
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
