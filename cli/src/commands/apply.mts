// `toolroom apply` and `toolroom diff`: the manifests go to POST /api/v1/apply as one JSON list (all or
// nothing, as the server applies them); diff is a dry run that prints each document's field changes and
// the impact on agents, and exits 0 (no differences), 1 (differences) or 2 (failed).
import { apiClient, unwrap } from '../client.mjs'
import type { Connection } from '../config.mjs'
import { ApiError, EXIT, UsageError } from '../errors.mjs'
import type { components } from '../generated/openapi.mjs'
import { readManifests, type SourceDocument, whereIs } from '../manifests.mjs'
import { out, painter, printValue } from '../output.mjs'

type ApplyResult = components['schemas']['ApplyResult']
type ApplyBody = components['schemas']['ApplyBody']
type ApplyItem = ApplyResult['results'][number]
type Impact = NonNullable<ApplyResult['impact']>

export interface ApplyOptions {
  filename: string[]
  recursive?: boolean
  dryRun?: boolean
  prune?: boolean
  selector?: string
  output?: 'text' | 'yaml' | 'json'
}

/** The manifests, sent; a refusal becomes an ApiError whose problems the caller shows at their files and lines. */
export async function sendManifests(conn: Connection, options: ApplyOptions, dryRun: boolean): Promise<{ answer: ApplyResult; sources: SourceDocument[] }> {
  if (!options.filename.length) throw new UsageError('name the manifests with -f FILE|DIR|- (repeatable)')
  if (options.prune && !options.selector) throw new UsageError('--prune needs -l SELECTOR: the labels of the set this manifest owns')
  if (options.selector && !options.prune) throw new UsageError('-l only says what --prune may delete: add --prune')
  const sources = readManifests(options.filename, options.recursive ?? false)
  const api = apiClient(conn)
  try {
    const answer = await unwrap(
      conn.server,
      api.POST('/api/v1/apply', {
        params: { query: { ...(dryRun ? { dryRun: 'true' as const } : {}), ...(options.prune ? { prune: options.selector } : {}) } },
        body: sources.map((s) => s.value) as ApplyBody,
      }),
    )
    return { answer, sources }
  } catch (e) {
    if (e instanceof ApiError) e.locate = (p) => (p.document !== undefined && sources[p.document] ? whereIs(sources[p.document], p.field) : undefined)
    throw e
  }
}

const label = (r: ApplyItem) => `${r.kind} ${r.namespace}/${r.name}`

function where(r: Pick<ApplyItem, 'index'>, sources: SourceDocument[]): string {
  return r.index === null ? '' : ` (${whereIs(sources[r.index])})`
}

export async function apply(conn: Connection, options: ApplyOptions): Promise<number> {
  const dryRun = options.dryRun ?? false
  const { answer, sources } = await sendManifests(conn, options, dryRun)
  if (options.output === 'json' || options.output === 'yaml') {
    printValue(answer, options.output)
    return EXIT.ok
  }
  const paint = painter(process.stdout)
  const would = dryRun ? 'would be ' : ''
  for (const r of answer.results) {
    const detail = r.action === 'updated' ? ` (${r.changes.length} field${r.changes.length === 1 ? '' : 's'})` : r.action === 'deleted' ? ' (prune)' : ''
    const action =
      r.action === 'unchanged'
        ? paint('dim', 'unchanged')
        : paint(r.action === 'deleted' ? 'red' : r.action === 'created' ? 'green' : 'yellow', `${would}${r.action}`)
    out(`${label(r)} ${action}${detail}${where(r, sources)}`)
  }
  const s = answer.summary
  out(
    `${answer.results.length} result${answer.results.length === 1 ? '' : 's'}: ${s.created} ${would}created, ${s.updated} ${would}updated, ${s.unchanged} unchanged, ${s.deleted} ${would}deleted${dryRun ? ' (dry run: nothing was written)' : ''}`,
  )
  if (answer.impact)
    out(
      `${answer.impact.agentsAffected} of ${answer.impact.agentsChecked} agents would see their tools change${answer.impact.agentsAffected ? ' (toolroom diff lists them)' : ''}`,
    )
  printWarnings(answer.warnings ?? [], sources, paint)
  return EXIT.ok
}

/** What would be written but fail once it is: said, never refused. */
function printWarnings(warnings: NonNullable<ApplyResult['warnings']>, sources: SourceDocument[], paint: ReturnType<typeof painter>) {
  if (warnings.length === 0) return
  out()
  out(paint('yellow', `${warnings.length} warning${warnings.length === 1 ? '' : 's'}: valid, but would fail once applied`))
  for (const w of warnings) out(`  ${w.kind}/${w.namespace}/${w.name} ${w.field}: ${w.message}${where({ index: w.index }, sources)}`)
}

export async function diff(conn: Connection, options: ApplyOptions): Promise<number> {
  const { answer, sources } = await sendManifests(conn, options, true)
  const changed = answer.results.some((r) => r.action !== 'unchanged') || (answer.impact?.agentsAffected ?? 0) > 0
  if (options.output === 'json' || options.output === 'yaml') printValue(answer, options.output)
  else printDiff(answer, sources)
  return changed ? EXIT.differences : EXIT.ok
}

const show = (value: unknown) => {
  const text = JSON.stringify(value)
  return text.length > 200 ? `${text.slice(0, 197)}…` : text
}

function printDiff(answer: ApplyResult, sources: SourceDocument[]) {
  const paint = painter(process.stdout)
  const changed = answer.results.filter((r) => r.action !== 'unchanged')
  if (changed.length === 0) out(`No differences: ${answer.results.length} document${answer.results.length === 1 ? '' : 's'} unchanged.`)
  for (const r of changed) {
    const mark = r.action === 'created' ? paint('green', '+') : r.action === 'deleted' ? paint('red', '-') : paint('yellow', '~')
    out(
      `${mark} ${paint('bold', label(r))} would be ${r.action}${r.action === 'deleted' ? ' (prune: labelled, not in the manifests)' : ''}${where(r, sources)}`,
    )
    for (const c of r.changes) {
      if (!('before' in c)) out(`    ${c.path}: ${paint('green', `+ ${show(c.after)}`)}`)
      else if (!('after' in c)) out(`    ${c.path}: ${paint('red', `- ${show(c.before)}`)}`)
      else out(`    ${c.path}: ${paint('red', show(c.before))} → ${paint('green', show(c.after))}`)
    }
  }
  if (answer.impact) printImpact(answer.impact, paint)
  printWarnings(answer.warnings ?? [], sources, paint)
}

function printImpact(impact: Impact, paint: ReturnType<typeof painter>) {
  out()
  out(paint('bold', `Impact on agents: ${impact.agentsAffected} of ${impact.agentsChecked} would see their tools change`))
  for (const agent of impact.agents) {
    out(`  ${agent.namespace}/${agent.name}${agent.id === null ? ' (new)' : ''}`)
    for (const c of agent.changes) {
      const mark = c.change === 'gained' ? paint('green', '+') : c.change === 'lost' ? paint('red', '-') : paint('yellow', '~')
      out(`    ${mark} ${c.tool}: ${c.reason}`)
    }
  }
  if (impact.truncated) out(`  … and ${impact.agentsAffected - impact.agents.length} more agents (the answer lists at most 20,000 tool changes)`)
}
