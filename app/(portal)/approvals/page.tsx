import type { Metadata } from 'next'
import Link from 'next/link'
import { ApprovalQueue } from '@/components/approvals/approval-queue'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Approvals' }

export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader
        title="Approvals"
        subtitle="Calls that wait for a human: approve and a worker runs the call once; deny and it never runs. Requests nobody decides in time expire."
        actions={
          <Link href="/approvals/settings" className="text-sm font-medium text-sky-700 hover:underline">
            Policies and webhooks
          </Link>
        }
      />
      <ApprovalQueue initial={firstParams(await searchParams)} canDecide />
    </>
  )
}
