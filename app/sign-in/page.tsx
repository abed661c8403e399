import type { Metadata } from 'next'
import { redirect } from 'next/navigation'
import { SignInForm } from '@/components/access/sign-in-form'
import { pageCaller } from '@/lib/auth/page-caller'
import { oidcButton } from '@/lib/auth/oidc-config'

export const metadata: Metadata = { title: 'Sign in' }

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  if (await pageCaller()) redirect('/')
  const { error } = await searchParams
  return <SignInForm oidc={oidcButton()} providerError={error ? String(error).slice(0, 200) : null} />
}
