'use client'
// The agent's own image: the tools it declares (read-only, with the manifest upload) and how they
// were introspected. Its tools are in the tool set above too; here is where the surface comes from.
import { useQuery } from '@tanstack/react-query'
import { ImageToolsSection } from '@/components/effective-tools/image-tools-section'
import { PageSection } from '@/components/ui/page-section'
import type { ImageToolsStatus } from '@/lib/client/api'
import { getEffectiveTools } from '@/lib/client/api'
import { queryKeys } from '@/lib/client/query-keys'

export function AgentImageSection({
  id,
  namespace,
  subjectNamespace,
  imageTools,
  pinnedDigest,
  introspection,
}: {
  id: string
  namespace?: string
  subjectNamespace: string
  imageTools: ImageToolsStatus | undefined
  pinnedDigest: string | null
  introspection: React.ReactNode
}) {
  const query = useQuery({ queryKey: queryKeys.effectiveTools('agents', id, namespace), queryFn: () => getEffectiveTools('agents', id, namespace) })
  const tools = (query.data?.effectiveTools ?? []).filter((t) => t.tier === 'image')
  return (
    <PageSection title="Image and introspection">
      <ImageToolsSection
        plural="agents"
        id={id}
        namespace={namespace}
        tools={tools}
        imageTools={imageTools}
        pinnedDigest={pinnedDigest}
        unitNamespace={subjectNamespace}
      />
      {introspection}
    </PageSection>
  )
}
