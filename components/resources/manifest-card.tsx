import { Card } from '@/components/ui/card'
import { CodeBlock } from '@/components/ui/code-block'
import type { Resource } from '@/lib/client/api'
import { manifestYaml } from '@/lib/client/manifest'

/** The resource as a manifest that re-applies to the same state: what goes into Git. */
export function ManifestCard({ resource }: { resource: Resource<unknown, unknown> }) {
  return (
    <Card title="Manifest" description="Re-appliable YAML (status and ids left out)." bodyClassName="p-3">
      <CodeBlock code={manifestYaml(resource)} title={`${resource.metadata.name}.yaml`} />
    </Card>
  )
}
