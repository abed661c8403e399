// `toolroom explain AGENT TOOL`: "can this agent call this tool, and why?", as the gateway would decide
// it now, without calling anything (POST /api/v1/agents/{id}/explain). Exits 0 when the call would
// run or wait for an approval, 1 when the gateway would refuse it, like `kubectl auth can-i`.
import { apiClient, unwrap } from '../client.mjs'
import type { Connection } from '../config.mjs'
import { EXIT, UsageError } from '../errors.mjs'
import type { components } from '../generated/openapi.mjs'
import { nameAndNamespace, resourceParams } from '../kinds.mjs'
import { out, printValue, table } from '../output.mjs'

type Explanation = components['schemas']['Explanation']
type Decision = Explanation['decision']

/** Decisions under which the gateway would run the call (now, or once a person approves it). */
const GOES_THROUGH: readonly Decision[] = ['allowed', 'approval_required']

export interface ExplainOptions {
  namespace?: string
  /** The arguments as one JSON object. */
  args?: string
  /** `key=value` pairs; a value that parses as JSON is that value, else a string. */
  arg: string[]
  idempotencyKey?: string
  /** The person the agent would act for: subject, issuer and (optional) display name. */
  person?: string
  personIssuer?: string
  personName?: string
  output: 'text' | 'yaml' | 'json'
}

export async function explain(conn: Connection, agent: string, tool: string, options: ExplainOptions): Promise<number> {
  const ref = nameAndNamespace(agent, options.namespace ?? conn.namespace)
  const body = {
    tool,
    arguments: argumentsOf(options),
    ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    ...personOf(options),
  }
  const api = apiClient(conn)
  const answer = await unwrap(conn.server, api.POST('/api/v1/agents/{id}/explain', { params: resourceParams(ref), body }))
  if (options.output === 'text') printExplanation(answer)
  else printValue(answer, options.output)
  return GOES_THROUGH.includes(answer.decision) ? EXIT.ok : EXIT.failed
}

function personOf({ person, personIssuer, personName }: ExplainOptions) {
  if (person === undefined && personIssuer === undefined) {
    if (personName !== undefined) throw new UsageError('--person-name goes with --person and --person-issuer')
    return {}
  }
  if (!person || !personIssuer) throw new UsageError('--person and --person-issuer go together: the subject and the issuer that vouches for it')
  return { person: { subject: person, issuer: personIssuer, ...(personName ? { displayName: personName } : {}) } }
}

function argumentsOf({ args, arg }: ExplainOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (args !== undefined) {
    let parsed: unknown
    try {
      parsed = JSON.parse(args)
    } catch (e) {
      throw new UsageError(`--args must be a JSON object: ${(e as Error).message}`)
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--args must be a JSON object, such as {"amount": 1200}')
    Object.assign(out, parsed)
  }
  for (const pair of arg) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new UsageError(`--arg takes key=value, not "${pair}"`)
    const raw = pair.slice(at + 1)
    let value: unknown = raw
    try {
      value = JSON.parse(raw)
    } catch {
      // Not JSON: the text itself, as a shell user means `--arg currency=EUR`.
    }
    out[pair.slice(0, at)] = value
  }
  return out
}

function printExplanation(e: Explanation): void {
  const through = e.through ? ` (through ${e.through.door})` : ''
  out(`${e.agent.namespace}/${e.agent.name} → ${e.tool}${through}: ${e.decision}`)
  out(e.summary)
  out(`identity: ${e.identity.chain}`)
  out()
  out(
    table(
      ['step', 'outcome', 'detail'],
      e.steps.map((s) => [s.step, s.outcome, s.detail]),
    ),
  )
  if (e.candidates.length > 0) {
    out()
    out(
      table(
        ['candidate', 'tier', 'state', 'level', 'approval', 'why'],
        e.candidates.map((c) => [c.provenance, c.tier, c.state, c.level, c.requiresApproval ? `required (${c.approvalSource})` : 'no', c.why]),
      ),
    )
  }
  for (const v of e.arguments.violations) out(`argument ${v.path}: ${v.message} (${v.rule})`)
  for (const w of e.rateLimits.windows)
    out(`rate limit (${w.appliesTo}, per ${w.window}): ${w.used} of ${w.limit} used, ${w.remaining} left, resets in ${w.resetsInSeconds} s`)
  if (e.idempotency.key !== null)
    out(`idempotency key (${e.idempotency.source}): ${e.idempotency.key}${e.idempotency.heldBy ? `, held by call ${e.idempotency.heldBy.callId}` : ''}`)
  if (e.idempotency.problem) out(`idempotency key refused: ${e.idempotency.problem}`)
  if (e.approval?.required)
    out(`approval: required by the ${e.approval.source} (level ${e.approval.level}), a request expires after ${e.approval.expirySeconds} s`)
  if (e.fixes.length > 0) {
    out()
    out('to let it through (apply one; -o yaml prints the manifests):')
    for (const f of e.fixes) out(`  - ${f.summary} (${f.target.kind} ${f.target.namespace}/${f.target.name})`)
  }
}
