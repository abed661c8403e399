'use client'
// One recorded call: who called what, how it ended, and the arguments and result as stored (the
// gateway masks a tool's redactFields, and stores nothing where logArgs/logResult say no).
import { IntentLink } from '@/components/ui/intent-link'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { CodeBlock } from '@/components/ui/code-block'
import { DefinitionList } from '@/components/ui/definition-list'
import { QueryView } from '@/components/ui/states'
import { dateTime, duration, humanize } from '@/lib/client/format'
import { resourceHref } from '@/lib/client/links'
import { useCall } from '@/lib/client/stats-hooks'
import { OutcomeBadge } from './outcome-badge'

const mono = (text: string | null) => (text ? <code className="break-all font-mono text-xs">{text}</code> : null)
const json = (value: unknown) => JSON.stringify(value, null, 2)

export function CallDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const query = useCall(id)
  return (
    <Card title="Call" description={<code className="font-mono">{id}</code>} actions={<Button onClick={onClose}>Close</Button>} className="call-detail">
      <QueryView query={query} loadingLabel="Loading call…">
        {(c) => (
          <div className="space-y-4">
            <DefinitionList
              columns={3}
              items={[
                ['Outcome', <OutcomeBadge key="o" outcome={c.outcome} />],
                ['Tool', mono(c.toolId)],
                [
                  'Agent',
                  <IntentLink key="a" href={resourceHref('Agent', c.agentName, c.agentNamespace)} className="font-mono text-xs text-sky-800 hover:underline">
                    {c.agentNamespace}/{c.agentName}
                  </IntentLink>,
                ],
                ['Unit', c.unit],
                ['Provenance', mono(c.provenance)],
                ['Side-effect level', c.level ? humanize(c.level) : null],
                ['Channel', c.channel],
                ['Started', dateTime(c.startedAt)],
                ['Latency', c.latencyMs !== null ? duration(c.latencyMs) : null],
                ['Attempts', String(c.attempts)],
                ['Error', c.errorCode || c.errorMessage ? <span className="text-red-800">{[c.errorCode, c.errorMessage].filter(Boolean).join(': ')}</span> : null],
                ['Idempotency key', mono(c.idempotencyKey)],
                ['Request id', mono(c.requestId)],
              ]}
            />
            <div className="grid gap-4 lg:grid-cols-2">
              {c.args !== null ? <CodeBlock title="arguments (as stored, redacted)" code={json(c.args)} maxHeight="20rem" /> : <p className="text-sm text-slate-500">Arguments not stored (the tool's observability.logArgs is off).</p>}
              {c.result !== null ? <CodeBlock title="result (as stored, redacted)" code={json(c.result)} maxHeight="20rem" /> : <p className="text-sm text-slate-500">No result stored.</p>}
            </div>
          </div>
        )}
      </QueryView>
    </Card>
  )
}
