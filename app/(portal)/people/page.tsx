import type { Metadata } from 'next'
import { NotAllowed } from '@/components/access/not-allowed'
import { PeopleManager } from '@/components/access/people-manager'
import { PageHeader } from '@/components/ui/page-header'
import { pageAllows } from '@/lib/sign-in/page-caller'

export const metadata: Metadata = { title: 'People' }

export default async function PeoplePage() {
  const { actor, allowed } = await pageAllows('admin')
  return (
    <>
      <PageHeader title="People" subtitle="Who can sign in, and with which role." />
      {allowed ? <PeopleManager /> : <NotAllowed role={actor.roles[0]} what="manage people" needs="admin" />}
    </>
  )
}
