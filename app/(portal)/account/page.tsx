import type { Metadata } from 'next'
import { ChangePasswordForm } from '@/components/access/change-password-form'
import { PageHeader } from '@/components/ui/page-header'
import { requirePageCaller } from '@/lib/sign-in/page-caller'

export const metadata: Metadata = { title: 'Your account' }

export default async function AccountPage() {
  const actor = await requirePageCaller()
  return (
    <>
      <PageHeader title="Your account" subtitle={`Signed in as ${actor.name}, role ${actor.roles[0]}.`} />
      <ChangePasswordForm />
    </>
  )
}
