'use client'
import { useQuery } from '@tanstack/react-query'
import { parse } from 'yaml'
import { DirectAccessNotice } from '@/components/language-tools/direct-access-notice'
import { Card } from '@/components/ui/card'
import { CodeBlock } from '@/components/ui/code-block'
import { QueryView } from '@/components/ui/states'
import { getAgentConfigYaml } from '@/lib/client/api'
import { queryKeys } from '@/lib/client/query-keys'

/** Entries besides the gateway's are servers an operator marked for direct access. */
function directServers(yaml: string): string[] {
  try {
    const tools = (parse(yaml) as { tools?: Record<string, unknown> } | null)?.tools ?? {}
    return Object.keys(tools).filter((name) => name !== 'toolroom')
  } catch {
    return []
  }
}

export function ConfigYamlCard({ id, namespace }: { id: string; namespace?: string }) {
  const query = useQuery({ queryKey: queryKeys.configYaml(id, namespace), queryFn: () => getAgentConfigYaml(id, namespace) })
  return (
    <Card
      title="config.yaml"
      description="The agent's runtime tools: block: every tool through Toolroom's gateway. The agent may fetch it itself with its credential."
      bodyClassName="space-y-3 p-3"
    >
      <QueryView query={query}>
        {(yaml) => (
          <>
            <DirectAccessNotice servers={directServers(yaml)} />
            <CodeBlock code={yaml} title="config.yaml" />
          </>
        )}
      </QueryView>
    </Card>
  )
}
