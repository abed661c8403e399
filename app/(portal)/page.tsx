import { ApprovalQueueCard } from '@/components/approvals/approval-queue-card'
import { OverviewDashboard } from '@/components/dashboard/overview-dashboard'
import { PageHeader } from '@/components/ui/page-header'

export default function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" subtitle="What the fleet may call, at a glance." />
      <div className="mb-4">
        <ApprovalQueueCard />
      </div>
      <OverviewDashboard />
    </>
  )
}
