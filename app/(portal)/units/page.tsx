import type { Metadata } from 'next'
import { UnitTree } from '@/components/units/unit-tree'
import { PageHeader } from '@/components/ui/page-header'
import { firstParams, type SearchParams } from '@/lib/client/search-params'

export const metadata: Metadata = { title: 'Units' }

export default async function UnitsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <>
      <PageHeader title="Units" subtitle="Groups of agents, as a tree per namespace. Bindings, grants and toggles flow down." />
      <UnitTree initial={firstParams(await searchParams)} />
    </>
  )
}
