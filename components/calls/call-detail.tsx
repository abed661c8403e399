'use client'
// One recorded call: who called what, how it ended, what the upstream answered, and the arguments
// and result as stored (the gateway masks a tool's redactFields and injected secrets, and stores
// nothing where logArgs/logResult say no). Shown in the call drawer.
import { IntentLink } from '@/components/ui/intent-link'
import { CodeBlock } from '@/components/ui/code-block'
import { DefinitionList } from '@/components/ui/definition-list'
import { QueryView } from '@/components/ui/states'
import { dateTime, duration, humanize } from '@/lib/client/format'
import { resolvedToolHref, resourceHref } from '@/lib/client/links'
import type { ToolCallDetail } from '@/lib/client/stats-api'
import { useCall } from '@/lib/client/stats-hooks'
import { parseToolStatKey } from '@/lib/stats/tool-stat-key'
import { OutcomeBadge } from './outcome-badge'
import { ToolLink } from './tool-link'

const mono = (text: string | null) => (text ? <code className="break-all font-mono text-xs">{text}</code> : null)
const json = (value: unknown) => JSON.stringify(value, null, 2)

/** A JSON reply pretty-printed (an excerpt cut short stays as it came). */
function readable(excerpt: string): string {
  try {
    return json(JSON.parse(excerpt))
  } catch {
    return excerpt
  }
}

function ToolLinks({ call }: { call: ToolCallDetail }) {
  const page = resolvedToolHref(call.toolKey)
  const isTool = parseToolStatKey(call.toolKey ?? '')?.source?.kind === 'Tool'
  const key = call.toolKey ?? `Unresolved/${call.toolId}`
  return (
    <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {page && isTool && call.outcome === 'failed' && (
        <IntentLink href={`${page}#failures`} className="font-medium text-sky-800 hover:underline">
          Why this tool fails
        </IntentLink>
      )}
      <IntentLink href={`/calls?toolKey=${encodeURIComponent(key)}`} className="font-medium text-sky-800 hover:underline">
        Every call of this tool
      </IntentLink>
      <IntentLink href={`/calls?agentId=${encodeURIComponent(call.agentId)}`} className="font-medium text-sky-800 hover:underline">
        Every call of this agent
      </IntentLink>
    </p>
  )
}

export function CallDetailBody({ id }: { id: string }) {
  const query = useCall(id)
  return (
    <QueryView query={query} loadingLabel="Loading call…">
      {(c) => (
        <div className="space-y-4">
          <DefinitionList
            columns={2}
            items={[
              ['Outcome', <OutcomeBadge key="o" outcome={c.outcome} />],
              ['Tool', <ToolLink key="t" toolId={c.toolId} toolKey={c.toolKey} />],
              [
                'Agent',
                <IntentLink
                  key="a"
                  href={resourceHref('Agent', c.agentName, c.agentNamespace)}
                  className="break-all font-mono text-xs text-sky-800 hover:underline"
                >
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
              ['Idempotency key', mono(c.idempotencyKey)],
              ['Request id', mono(c.requestId)],
            ]}
          />
          {(c.errorCode || c.errorMessage) && (
            <div className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="call-error">
              <p className="text-xs font-medium uppercase tracking-wide text-red-700">Error</p>
              <p className="mt-0.5 break-words">{[c.errorCode, c.errorMessage].filter(Boolean).join(': ')}</p>
            </div>
          )}
          {c.upstreamExcerpt !== null && (
            <div data-testid="upstream-excerpt">
              <CodeBlock title="what the upstream answered (redacted, at most 2000 characters)" code={readable(c.upstreamExcerpt)} maxHeight="16rem" />
            </div>
          )}
          <ToolLinks call={c} />
          {c.args !== null ? (
            <CodeBlock title="arguments (as stored, redacted)" code={json(c.args)} maxHeight="20rem" />
          ) : (
            <p className="text-sm text-slate-500">Arguments not stored (the tool&apos;s observability.logArgs is off).</p>
          )}
          {c.result !== null ? (
            <CodeBlock title="result (as stored, redacted)" code={json(c.result)} maxHeight="20rem" />
          ) : (
            <p className="text-sm text-slate-500">No result stored.</p>
          )}
        </div>
      )}
    </QueryView>
  )
}
