// What a dry run warns about: the documents that are valid but would not work once written, found
// the way the status they will get is found. A Tool's conditions are observed by the same pure rules
// its status refresh uses (lib/tools/tool-conditions.ts) over the registry as it would be (the
// manifest's Secrets and MCP servers laid over the stored ones), and a host is judged by the outbound
// policy and DNS exactly as the status refresh judges it (endpointVerdict). A warning never refuses
// an apply: a Secret or a server may come later, and DNS may differ where the gateway runs.
import 'server-only'
import { config } from '@/lib/config'
import { prisma } from '@/lib/db'
import { secretRefProblem } from '@/lib/secrets/secret-ref'
import { endpointVerdict } from '@/lib/tools/refresh-tool-status'
import { BLOCKING_CONDITIONS, type EndpointFact, observeToolConditions, type SecretFact, type ServerFact, upstreamToolName } from '@/lib/tools/tool-conditions'
import type { IndexedDocument } from './check-manifest-rules'
import { parseRef } from '@/lib/refs/resource-ref'
import { languageToolEndpoint, type LanguageToolSpec } from './specs/language-tool'
import type { ToolSpec } from './specs/tool'

/** The most endpoints one dry run judges (each a DNS lookup, cached for a minute, with a 2 s timeout). */
export const MAX_HOSTS_CHECKED = 50

export interface ApplyWarning {
  /** The document's index in the manifest. */
  index: number
  kind: string
  namespace: string
  name: string
  /** The field whose value would fail, as a path in the document. */
  field: string
  /** One CamelCase word: the reason of the condition the resource would get. */
  reason: string
  message: string
}

/** Where the manifest's documents' secretRefs, servers and hosts lead, looked up once for all of them. */
export interface ForeseenFacts {
  secret(namespace: string, name: string): SecretFact
  server(namespace: string, name: string, upstreamTool: string): ServerFact
  endpoint(url: string): EndpointFact
  osToolsEnabled: boolean
}

const FIELD_OF_CONDITION: Record<string, (spec: ToolSpec) => string> = {
  SecretAvailable: (spec) => (spec.endpoint?.auth?.type === 'oauth2' ? 'spec.endpoint.auth.oauth2.clientSecretRef.name' : 'spec.endpoint.auth.secretRef'),
  TokenIssued: () => 'spec.endpoint.auth.oauth2',
  ServerReady: () => 'spec.mcpServerRef.name',
  EndpointAllowed: () => 'spec.endpoint.url',
  Runnable: () => 'spec.type',
}

/** The warnings of the documents an apply would create or change. Pure: the facts are looked up before. */
export function warningsOf(documents: readonly IndexedDocument[], facts: ForeseenFacts): ApplyWarning[] {
  const out: ApplyWarning[] = []
  for (const { index, document } of documents) {
    const { namespace, name } = document.metadata
    const at = { index, kind: document.kind, namespace, name }
    if (document.kind === 'Tool') {
      const spec = document.spec as ToolSpec
      const ref = secretRefOf(spec)
      const secret = ref && !secretRefProblem(ref, namespace) ? facts.secret(namespace, parseRef(ref, namespace).name) : undefined
      const serverRef = spec.type === 'mcp' ? spec.mcpServerRef?.name : undefined
      const server = serverRef ? parseRef(serverRef, namespace) : null
      const conditions = observeToolConditions({
        namespace,
        name,
        spec,
        secret,
        server: server ? facts.server(server.namespace, server.name, upstreamToolName(spec, name)) : undefined,
        endpoint: spec.type === 'rest' && spec.endpoint ? facts.endpoint(spec.endpoint.url) : undefined,
        osToolsEnabled: facts.osToolsEnabled,
        recent: { calls: 0, failures: 0 },
      })
      for (const c of conditions)
        if (c.status === 'False' && (BLOCKING_CONDITIONS as readonly string[]).includes(c.type))
          out.push({ ...at, field: FIELD_OF_CONDITION[c.type](spec), reason: c.reason, message: `${c.message}: the Tool would be Failed` })
    } else if (document.kind === 'LanguageTool') {
      const spec = document.spec as LanguageToolSpec
      for (const { field, ref, key } of languageToolSecretRefs(spec)) {
        const problem = secretRefProblem(ref, namespace)
        const secretName = parseRef(ref, namespace).name
        const secret = problem ? null : facts.secret(namespace, secretName)
        const message = problem
          ? problem
          : !secret?.found
            ? `Secret "${namespace}/${secretName}" does not exist`
            : key !== undefined && !secret.keys.includes(key)
              ? `Secret "${namespace}/${secretName}" has no key "${key}"`
              : null
        if (message) out.push({ ...at, field, reason: problem ? 'SecretOutsideNamespace' : 'SecretNotFound', message: `${message}: discovery would fail` })
      }
      const url = languageToolEndpoint(name, namespace, spec)
      const verdict = facts.endpoint(url)
      const field = spec.endpoint ? 'spec.endpoint' : 'metadata.name'
      const where = spec.endpoint ? '' : ` (no spec.endpoint: the in-cluster address ${url})`
      if ('unresolved' in verdict) out.push({ ...at, field, reason: 'HostNotResolved', message: `${verdict.unresolved}${where}: discovery would fail` })
      else if ('allowed' in verdict && !verdict.allowed) out.push({ ...at, field, reason: 'RefusedByPolicy', message: `${verdict.why}: discovery would fail` })
    }
  }
  return out
}

function secretRefOf(spec: ToolSpec): string | undefined {
  const auth = spec.type === 'rest' ? spec.endpoint?.auth : undefined
  return auth?.type === 'oauth2' ? auth.oauth2?.clientSecretRef.name : auth?.secretRef?.name
}

function languageToolSecretRefs(spec: LanguageToolSpec): { field: string; ref: string; key?: string }[] {
  const refs = (spec.authHeaders ?? []).map((h, i) => ({ field: `spec.authHeaders[${i}].secretRef.name`, ref: h.secretRef.name, key: h.secretRef.key }))
  const client = spec.auth?.oauth2.clientSecretRef
  if (client) refs.push({ field: 'spec.auth.oauth2.clientSecretRef.name', ref: client.name, key: client.key })
  return refs
}

/**
 * The warnings of a dry run's created and updated documents: the facts they depend on are read from
 * the manifest first (a Secret or server it writes counts as there), then from what is stored.
 */
export async function foreseeFailures(documents: readonly IndexedDocument[]): Promise<ApplyWarning[]> {
  const relevant = documents.filter(({ document: d }) => d.kind === 'Tool' || d.kind === 'LanguageTool')
  if (relevant.length === 0) return []
  const key = (namespace: string, name: string) => `${namespace}/${name}`
  const manifestSecrets = new Map<string, string[]>()
  const manifestServers = new Set<string>()
  for (const { document: d } of documents) {
    if (d.kind === 'Secret') {
      const spec = d.spec as { stringData?: object; data?: object; keys?: string[] }
      manifestSecrets.set(key(d.metadata.namespace, d.metadata.name), [
        ...Object.keys(spec.stringData ?? {}),
        ...Object.keys(spec.data ?? {}),
        ...(spec.keys ?? []),
      ])
    } else if (d.kind === 'LanguageTool') manifestServers.add(key(d.metadata.namespace, d.metadata.name))
  }
  const [secrets, servers] = await Promise.all([
    prisma.secret.findMany({ select: { namespace: true, name: true, spec: true } }),
    prisma.languageTool.findMany({ select: { namespace: true, name: true, phase: true, lastError: true, toolSchemas: true } }),
  ])
  const storedSecrets = new Map(secrets.map((s) => [key(s.namespace, s.name), (s.spec as { keys?: string[] }).keys ?? []]))
  const storedServers = new Map(servers.map((s) => [key(s.namespace, s.name), s]))

  const urls = new Set<string>()
  for (const { document: d } of relevant) {
    if (d.kind === 'Tool' && (d.spec as ToolSpec).type === 'rest') urls.add((d.spec as ToolSpec).endpoint!.url)
    if (d.kind === 'LanguageTool') urls.add(languageToolEndpoint(d.metadata.name, d.metadata.namespace, d.spec as LanguageToolSpec))
  }
  // A dry run costs no write, so the lookups it can set off are bounded: past the first hosts, the rest are not judged.
  const judged = [...urls].slice(0, MAX_HOSTS_CHECKED)
  const verdicts = new Map<string, EndpointFact>(await Promise.all(judged.map(async (url) => [url, await endpointVerdict(url)] as const)))
  const notChecked: EndpointFact = { unknown: `not checked: a dry run looks up at most ${MAX_HOSTS_CHECKED} hosts` }

  return warningsOf(relevant, {
    osToolsEnabled: config().TOOLROOM_ENABLE_OS_TOOLS,
    endpoint: (url) => verdicts.get(url) ?? notChecked,
    secret: (namespace, name) => {
      const keys = manifestSecrets.get(key(namespace, name)) ?? storedSecrets.get(key(namespace, name))
      return keys ? { found: true, keys } : { found: false }
    },
    server: (namespace, name, upstreamTool) => {
      // A server the manifest writes is discovered after the apply: not known to fail yet.
      if (manifestServers.has(key(namespace, name))) return { found: true, phase: 'Pending', lastError: null, listsTool: false, upstreamTool }
      const row = storedServers.get(key(namespace, name))
      if (!row) return { found: false }
      const listed = Array.isArray(row.toolSchemas) ? (row.toolSchemas as { name?: unknown }[]).map((t) => t?.name) : []
      return { found: true, phase: row.phase, lastError: row.lastError, listsTool: listed.includes(upstreamTool), upstreamTool }
    },
  })
}
