// `toolroom policy test -f cases.yaml`: a Policy against sample calls with the effect each expects, for
// CI (docs/design/policy.md#testing). The server judges every case with the gateway's own evaluation
// (POST /api/v1/policy-tests), so the CLI needs no CEL. Exits 0 when every case gets the effect it
// expects, 1 when one does not (each shown with what it got and why), 2 when it cannot run.
import path from 'node:path'
import fs from 'node:fs'
import { apiClient, unwrap } from '../client.mjs'
import type { Connection } from '../config.mjs'
import { ApiError, EXIT, UsageError } from '../errors.mjs'
import type { components } from '../generated/openapi.mjs'
import { nameAndNamespace } from '../kinds.mjs'
import { ManifestError, parseManifestText, type SourceDocument, whereIs } from '../manifests.mjs'
import { out, painter, printValue } from '../output.mjs'

type TestRequest = components['schemas']['PolicyTestRequest']
type TestResult = components['schemas']['PolicyTestResult']

export interface PolicyTestOptions {
  filename?: string
  /** An applied Policy (name or namespace/name), instead of the cases file's `policy`. */
  policy?: string
  /** A manifest file holding the Policy, instead of the cases file's `policyFile`. */
  policyFile?: string
  namespace?: string
  output: 'text' | 'yaml' | 'json'
}

interface CasesFile {
  policy?: unknown
  policyFile?: unknown
  cases?: unknown
}

export async function policyTest(conn: Connection, options: PolicyTestOptions): Promise<number> {
  if (!options.filename) throw new UsageError('name the cases with -f FILE (YAML or JSON; - for stdin)')
  const casesSource = readOne(options.filename)
  const file = casesSource.value as CasesFile
  if (typeof file !== 'object' || file === null || Array.isArray(file) || !Array.isArray(file.cases))
    throw new ManifestError(`${casesSource.file}: a cases file is a mapping with \`cases:\` (a list) and \`policy:\` or \`policyFile:\``)

  const policyFile = options.policyFile ?? (typeof file.policyFile === 'string' ? relativeTo(options.filename, file.policyFile) : undefined)
  const policyName = options.policy ?? (typeof file.policy === 'string' ? file.policy : undefined)
  let policySource: SourceDocument | undefined
  let policy: TestRequest['policy']
  if (policyFile) {
    policySource = policyIn(policyFile, policyName)
    const doc = policySource.value as { metadata?: { name?: string; namespace?: string }; spec?: unknown }
    policy = {
      name: doc.metadata?.name ?? '',
      namespace: doc.metadata?.namespace ?? options.namespace ?? conn.namespace ?? 'default',
      spec: doc.spec as TestRequest['policy']['spec'],
    }
  } else if (policyName) {
    const ref = nameAndNamespace(policyName, options.namespace ?? (policyName.includes('/') ? undefined : conn.namespace))
    policy = { name: ref.id, namespace: ref.namespace ?? 'default' }
  } else {
    throw new UsageError(
      `${casesSource.file}: say which Policy to test: \`policy: NAME\` (an applied one) or \`policyFile: FILE\` in the file, or --policy / --policy-file`,
    )
  }

  const api = apiClient(conn)
  let answer: TestResult
  try {
    answer = await unwrap(conn.server, api.POST('/api/v1/policy-tests', { body: { policy, cases: file.cases as TestRequest['cases'] } }))
  } catch (e) {
    if (e instanceof ApiError)
      e.locate = (p) => {
        if (p.field.startsWith('cases')) return whereIs(casesSource, p.field)
        if (policySource && p.field.startsWith('policy.')) return whereIs(policySource, p.field.slice('policy.'.length))
        return undefined
      }
    throw e
  }
  if (options.output === 'text') printResult(answer, file.cases as unknown[], casesSource)
  else printValue(answer, options.output)
  return answer.failed === 0 ? EXIT.ok : EXIT.failed
}

function readOne(file: string): SourceDocument {
  let text: string
  try {
    text = file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(file, 'utf8')
  } catch {
    throw new ManifestError(`${file}: no such file`)
  }
  const docs = parseManifestText(file === '-' ? '<stdin>' : file, text)
  if (docs.length !== 1) throw new ManifestError(`${file}: a cases file is one YAML or JSON document, not ${docs.length}`)
  return docs[0]
}

/** The Policy of a manifest file: its only one, or the one named. */
function policyIn(file: string, name: string | undefined): SourceDocument {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch {
    throw new ManifestError(`${file}: no such file`)
  }
  const policies = parseManifestText(file, text).filter((d) => (d.value as { kind?: unknown } | null)?.kind === 'Policy')
  const wanted = name ? policies.filter((d) => (d.value as { metadata?: { name?: string } }).metadata?.name === name.split('/').pop()) : policies
  if (wanted.length === 1) return wanted[0]
  if (wanted.length === 0) throw new ManifestError(`${file}: no Policy${name ? ` named ${name}` : ''}`)
  throw new ManifestError(`${file}: ${wanted.length} Policies; name the one to test with \`policy:\` or --policy`)
}

const relativeTo = (casesFile: string, target: string) => (casesFile === '-' || path.isAbsolute(target) ? target : path.join(path.dirname(casesFile), target))

function printResult(result: TestResult, cases: unknown[], source: SourceDocument): void {
  const paint = painter(process.stdout)
  out(`policy ${result.policy.namespace}/${result.policy.name} (${result.policy.source === 'applied' ? 'as applied' : 'from the file'})`)
  for (const c of result.cases) {
    const label = c.name ?? `case ${c.index}`
    const tool = (cases[c.index] as { tool?: unknown } | undefined)?.tool
    const toolId = typeof tool === 'string' ? tool : ((tool as { id?: string } | undefined)?.id ?? '')
    if (c.pass) {
      out(`${paint('green', 'ok')}    ${label}: ${c.effect}`)
      continue
    }
    out(`${paint('red', 'FAIL')}  ${label} (${whereIs(source, `cases[${c.index}]`)}): expected ${paint('bold', c.expect)}, got ${paint('bold', c.effect)}`)
    if (!c.reached) out(`      the Policy does not reach this call (its selector does not take in this agent with ${toolId || 'this tool'})`)
    if (c.message) out(`      ${c.message}`)
    for (const r of c.rules) {
      const values = Object.entries(r.values)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(', ')
      out(`      rule ${r.rule} (${r.effect}): ${r.outcome}${values ? ` with ${values}` : ''}${r.error ? `: ${r.error}` : ''}`)
    }
  }
  out()
  out(`${result.passed} passed, ${result.failed} failed`)
}
