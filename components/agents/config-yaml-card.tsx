'use client'
import { useQuery } from '@tanstack/react-query'
import { Card } from '@/components/ui/card'
import { CodeBlock } from '@/components/ui/code-block'
import { QueryView } from '@/components/ui/states'
import { getAgentConfigYaml } from '@/lib/client/api'
import { queryKeys } from '@/lib/client/query-keys'

export function ConfigYamlCard({ id, namespace }: { id: string; namespace?: string }) {
  const query = useQuery({ queryKey: queryKeys.configYaml(id, namespace), queryFn: () => getAgentConfigYaml(id, namespace) })
  return (
    <Card title="config.yaml" description="The agent's runtime tools: block: what its runtime connects to." bodyClassName="p-3">
      <QueryView query={query}>{(yaml) => <CodeBlock code={yaml} title="config.yaml" />}</QueryView>
    </Card>
  )
}
