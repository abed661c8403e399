// Pages ask who is signed in; everything under the portal layout needs someone.
import 'server-only'
import { headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { type Access, isAllowed } from '@/lib/auth/access-rules'
import { authenticateSession } from './authenticate'
import type { Actor } from '@/lib/auth/access-rules'

export async function pageCaller(): Promise<Actor | null> {
  return authenticateSession(await headers())
}

/** The signed-in person, or a redirect to the sign-in page. */
export async function requirePageCaller(): Promise<Actor> {
  const actor = await pageCaller()
  if (!actor) redirect('/sign-in')
  return actor
}

export async function pageAllows(access: Access): Promise<{ actor: Actor; allowed: boolean }> {
  const actor = await requirePageCaller()
  return { actor, allowed: isAllowed(actor, access) }
}
