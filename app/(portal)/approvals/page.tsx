import { IntentLink } from '@/components/ui/intent-link'
import type { Metadata } from 'next'
import { APPROVAL_CONTRACTS } from '@/lib/api/approval-routes'
import { ApprovalQueue } from '@/components/approvals/approval-queue'
import { EARLY_QUEUE_KEYS_SCRIPT } from '@/components/approvals/early-queue-keys'
import { InlineScript } from '@/components/layout/early-shortcuts'
import { PageHeader } from '@/components/ui/page-header'
import { listApprovals } from '@/lib/approvals/list-approvals'
import { requirePageCaller } from '@/lib/sign-in/page-caller'
import { APPROVAL_PAGE_SIZE } from '@/lib/client/approvals-api'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Approvals' }
export const dynamic = 'force-dynamic'

export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  // The page reads the queue itself, so it checks its caller itself: the portal layout's check does
  // not run again when a client navigation renders only this page.
  await requirePageCaller()
  const initial = firstParams(await searchParams)
  // The first page is rendered with the HTML: with thousands waiting, rows are on screen before the
  // client has fetched anything. Filters the API would refuse just start the page empty-handed.
  const parsed = APPROVAL_CONTRACTS.list.query.safeParse({ ...initial, limit: APPROVAL_PAGE_SIZE })
  const initialPage = parsed.success ? await listApprovals(parsed.data) : undefined
  const renderedAt = Date.now()
  return (
    <>
      <InlineScript code={EARLY_QUEUE_KEYS_SCRIPT} />
      <PageHeader
        title="Approvals"
        subtitle="Calls that wait for a human: approve and a worker runs the call once; deny and it never runs. Requests nobody decides in time expire."
        actions={
          <IntentLink href="/approvals/settings" className="text-sm font-medium text-sky-700 hover:underline">
            Policies and webhooks
          </IntentLink>
        }
      />
      <ApprovalQueue initial={initial} initialPage={initialPage} renderedAt={renderedAt} />
    </>
  )
}
