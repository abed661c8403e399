import type { Metadata } from 'next'
import { AuditLog } from '@/components/audit/audit-log'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Audit log' }

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader
        title="Audit log"
        subtitle="Every change to a resource with before and after, every decision, sign-in and token action. Append-only: the database refuses to alter or remove an entry."
      />
      <AuditLog initial={firstParams(await searchParams)} />
    </>
  )
}
