import type { Metadata } from 'next'
import { redirect } from 'next/navigation'
import { OAuthConsentForm } from '@/components/access/oauth-consent-form'
import { isAllowed } from '@/lib/auth/access-rules'
import { pageCaller } from '@/lib/sign-in/page-caller'
import { describeConsent } from '@/lib/sign-in/oauth-consent'

export const metadata: Metadata = { title: 'Connect an MCP client' }

export default async function OAuthConsentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(key, v)
  const actor = await pageCaller()
  if (!actor) redirect(`/sign-in?${query.toString()}`)
  const request = await describeConsent(query)
  return <OAuthConsentForm request={request} person={actor.name} mayConsent={isAllowed(actor, 'write')} />
}
