'use client'
import { useQuery } from '@tanstack/react-query'
import { Select } from '@/components/ui/select'
import { getOverview } from '@/lib/client/api'
import { queryKeys } from '@/lib/client/query-keys'

/** Namespace filter fed by the overview's list of namespaces that hold anything. */
export function NamespaceSelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const overview = useQuery({ queryKey: queryKeys.overview(), queryFn: getOverview })
  const names = new Set(overview.data?.namespaces ?? [])
  // Keep a namespace from the URL selectable even when nothing lives in it any more.
  if (value) names.add(value)
  return (
    <Select label="Namespace" value={value} onChange={onChange} options={[...names].sort().map((n) => ({ value: n, label: n }))} allLabel="All namespaces" />
  )
}
