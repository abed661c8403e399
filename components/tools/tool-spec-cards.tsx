import { Code } from '@/components/ui/code'
import { IntentLink } from '@/components/ui/intent-link'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { CodeBlock } from '@/components/ui/code-block'
import { DefinitionList } from '@/components/ui/definition-list'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import { count, describeOAuth2Client, humanize } from '@/lib/client/format'
import { refHref } from '@/lib/client/links'
import { LevelBadge, TypeBadge } from './badges'

const yesNo = (v: boolean | undefined, unset = 'not set') => (v === undefined ? <span className="text-slate-400">{unset}</span> : v ? 'yes' : 'no')

function Invocation({ spec, namespace }: { spec: ToolSpec; namespace: string }) {
  if (spec.type === 'rest' && spec.endpoint) {
    const auth = spec.endpoint.auth
    return (
      <DefinitionList
        columns={1}
        items={[
          [
            'Endpoint',
            <span key="e" className="flex flex-wrap items-baseline gap-2">
              <Badge tone="dark">{spec.endpoint.method}</Badge>
              <Code>{spec.endpoint.url}</Code>
            </span>,
          ],
          ['Auth', auth ? `${auth.type}${auth.header ? ` (header ${auth.header})` : ''}` : 'none'],
          ['Secret', auth?.secretRef ? <Code>{`${auth.secretRef.name}${auth.secretRef.key ? ` · key ${auth.secretRef.key}` : ''}`}</Code> : null],
          ['OAuth client', auth?.oauth2 ? <Code>{describeOAuth2Client(auth.oauth2)}</Code> : null],
          [
            'Client secret',
            auth?.oauth2 ? (
              <Code>{`${auth.oauth2.clientSecretRef.name}${auth.oauth2.clientSecretRef.key ? ` · key ${auth.oauth2.clientSecretRef.key}` : ''}`}</Code>
            ) : null,
          ],
          ['Timeout', spec.endpoint.timeoutMs ? `${spec.endpoint.timeoutMs} ms` : null],
        ]}
      />
    )
  }
  if (spec.type === 'mcp' && spec.mcpServerRef) {
    return (
      <DefinitionList
        items={[
          [
            'MCP server',
            <IntentLink key="s" href={refHref('LanguageTool', spec.mcpServerRef.name, namespace)} className="font-mono text-xs text-sky-800 hover:underline">
              {spec.mcpServerRef.name}
            </IntentLink>,
          ],
          ['Upstream tool', spec.mcpServerRef.tool ? <Code>{spec.mcpServerRef.tool}</Code> : 'the last segment of the tool id'],
        ]}
      />
    )
  }
  if (spec.type === 'os' && spec.command) {
    return (
      <div className="space-y-3">
        <CodeBlock code={JSON.stringify(spec.command.argv, null, 2)} title="argv (no shell)" maxHeight="10rem" />
        <DefinitionList
          items={[
            ['Timeout', spec.command.timeoutSeconds ? `${spec.command.timeoutSeconds} s` : null],
            ['Max output', spec.command.maxOutputBytes ? `${count(spec.command.maxOutputBytes)} bytes` : null],
          ]}
        />
      </div>
    )
  }
  return <p className="text-sm text-slate-600">A function tool: implemented by the agent runtime; Toolroom governs and records its calls.</p>
}

export function ToolSpecCards({ spec, namespace }: { spec: ToolSpec; namespace: string }) {
  const se = spec.sideEffects
  const safety = spec.safety
  const obs = spec.observability
  const rate = safety?.rateLimit
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card
        title={
          <span className="flex items-center gap-2">
            Invocation <TypeBadge type={spec.type} />
          </span>
        }
      >
        <Invocation spec={spec} namespace={namespace} />
      </Card>
      <Card title="Side effects">
        <DefinitionList
          items={[
            [
              'Level',
              se?.level ? (
                <LevelBadge level={se.level} />
              ) : (
                <span className="text-slate-600">undeclared (treated as not read-only, destructive, open-world)</span>
              ),
            ],
            ['Idempotent', yesNo(se?.idempotent, 'no (not declared)')],
            [
              'Requires approval',
              se?.requiresApproval === undefined ? (
                <span className="text-slate-600">per the {se?.level ? humanize(se.level) : 'level'} policy</span>
              ) : (
                yesNo(se.requiresApproval)
              ),
            ],
            ['Idempotency key', se?.idempotencyKeyTemplate ? <Code>{se.idempotencyKeyTemplate}</Code> : null],
          ]}
        />
      </Card>
      <Card title="Safety">
        <DefinitionList
          items={[
            [
              'Allowed agents',
              safety?.allowedAgents?.length ? (
                <span className="flex flex-wrap gap-x-3">
                  {safety.allowedAgents.map((a) => (
                    <IntentLink key={a} href={refHref('Agent', a, namespace)} className="font-mono text-xs text-sky-800 hover:underline">
                      {a}
                    </IntentLink>
                  ))}
                </span>
              ) : (
                'any agent'
              ),
            ],
            ['Denied namespaces', safety?.deniedNamespaces?.length ? <Code>{safety.deniedNamespaces.join(', ')}</Code> : 'none'],
            ['Rate limit / minute', rate?.callsPerMinute !== undefined ? String(rate.callsPerMinute) : 'policy default'],
            ['Rate limit / day', rate?.callsPerDay !== undefined ? String(rate.callsPerDay) : 'policy default'],
          ]}
        />
      </Card>
      <Card title="Observability">
        <DefinitionList
          items={[
            ['Log arguments', yesNo(obs?.logArgs, 'policy default')],
            ['Log results', yesNo(obs?.logResult, 'policy default')],
            ['Redacted fields', obs?.redactFields?.length ? <Code>{obs.redactFields.join(', ')}</Code> : 'none'],
          ]}
        />
      </Card>
    </div>
  )
}
