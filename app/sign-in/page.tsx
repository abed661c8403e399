import type { Metadata } from 'next'
import { redirect } from 'next/navigation'
import { SignInForm } from '@/components/access/sign-in-form'
import { pageCaller } from '@/lib/sign-in/page-caller'
import { oidcButton } from '@/lib/auth/oidc-config'
import { authorizeContinuation } from '@/lib/oauth/authorize-continuation'

export const metadata: Metadata = { title: 'Sign in' }

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(key, v)
  // An MCP client's authorization request sent the person here: once signed in, it carries on.
  const continueTo = authorizeContinuation(query)
  if (await pageCaller()) redirect(continueTo ?? '/')
  const error = query.get('error')
  return <SignInForm oidc={oidcButton()} providerError={error ? error.slice(0, 200) : null} continueTo={continueTo} />
}
