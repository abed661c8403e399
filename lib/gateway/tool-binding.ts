// How the gateway carries out an effective entry, and what it may write about it: the executor
// (rest, mcp, os, platform, or none for tools that run elsewhere), the idempotency template and the
// observability rules (the Tool's own, else its level's SideEffectPolicy). Pure over the registry
// reader, which keeps what it read for the registry epoch.
import type { McpTransportUsed } from '@/lib/discovery/introspect-mcp-server'
import type { RegistryReader } from '@/lib/effective-tools/registry-reader'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import { qualifyRef } from '@/lib/refs/resource-ref'
import { languageToolEndpoint, type LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import type { OAuth2Client, OAuth2Connection } from '@/lib/manifests/specs/upstream-auth'
import { mcpTargetOf } from './mcp-target'

export interface McpTarget {
  /** The MCP endpoint (streamable-http, stateless-post) or the SSE stream's URL (sse). */
  url: string
  /** The transport discovery reached the server over. */
  transport: McpTransportUsed
  namespace: string
  authHeaders: NonNullable<LanguageToolSpec['authHeaders']>
  /** The LanguageTool's name: a connected server's tokens are its connection's. */
  name: string
  /** The endpoint as configured (what a connection was made for; `url` is where discovery found the server). */
  endpoint: string
  /** The server's OAuth client or connection (`spec.auth.oauth2`): its access token goes in Authorization. */
  oauth2?: OAuth2Client | OAuth2Connection
}

export type Executor =
  | { kind: 'platform' }
  | { kind: 'rest'; endpoint: NonNullable<ToolSpec['endpoint']>; namespace: string }
  | { kind: 'mcp'; target: McpTarget; upstreamName: string }
  | { kind: 'os'; command: NonNullable<ToolSpec['command']> }
  | { kind: 'none'; reason: string }

export interface Binding {
  executor: Executor
  idempotencyKeyTemplate?: string
  logArgs: boolean
  logResult: boolean
  redactFields: string[]
}

/** What the binding reads of the registry: the registry reader (one per registry epoch), or a stand-in in tests. */
export type BindingReader = Pick<RegistryReader, 'toolSpecs' | 'servers' | 'connectors' | 'policies'>

async function mcpTargetAt(reader: BindingReader, ref: string): Promise<McpTarget | null> {
  const server = (await reader.servers([ref])).get(ref)
  if (!server) return null
  const endpoint = languageToolEndpoint(server.name, server.namespace, server.spec)
  return {
    ...mcpTargetOf(endpoint, server),
    namespace: server.namespace,
    name: server.name,
    endpoint,
    authHeaders: server.spec.authHeaders ?? [],
    ...(server.spec.auth ? { oauth2: server.spec.auth.oauth2 } : {}),
  }
}

const lastSegment = (id: string) => id.slice(id.lastIndexOf('.') + 1)

// A binding is a pure function of the entry and the registry as one reader saw it, and the gateway
// asks for it on every call: it is kept per reader (one per registry epoch; a fresh one while the
// change listener is down) and per entry object (the effective set's, also kept per epoch), so a
// registry change reaches the next call as before. Working out an MCP target parses its URLs, a
// measurable share of a call (BENCHMARKS.md, "Gateway: cost per call").
const bound = new WeakMap<BindingReader, WeakMap<EffectiveTool, Promise<Binding>>>()

export function bindingFor(tool: EffectiveTool, reader: BindingReader): Promise<Binding> {
  let byEntry = bound.get(reader)
  if (!byEntry) bound.set(reader, (byEntry = new WeakMap()))
  let binding = byEntry.get(tool)
  if (!binding) {
    const made = (binding = bindingOf(tool, reader))
    byEntry.set(tool, made)
    made.catch(() => byEntry.get(tool) === made && byEntry.delete(tool))
  }
  return binding
}

async function bindingOf(tool: EffectiveTool, reader: BindingReader): Promise<Binding> {
  const policy = (await reader.policies()).get(tool.sideEffects.level)
  const defaults = { logArgs: policy?.logArgs ?? true, logResult: policy?.logResult ?? true, redactFields: [] as string[] }
  if (tool.tier === 'platform') return { executor: { kind: 'platform' }, ...defaults }

  const { source } = tool
  if (source.kind === 'Tool') {
    const namespace = source.namespace ?? 'default'
    const spec = (await reader.toolSpecs([`${namespace}/${source.name}`])).get(`${namespace}/${source.name}`)
    if (!spec) return { executor: { kind: 'none', reason: `Tool "${namespace}/${source.name}" no longer exists` }, ...defaults }
    const rules = {
      ...(spec.sideEffects?.idempotencyKeyTemplate ? { idempotencyKeyTemplate: spec.sideEffects.idempotencyKeyTemplate } : {}),
      logArgs: spec.observability?.logArgs ?? defaults.logArgs,
      logResult: spec.observability?.logResult ?? defaults.logResult,
      redactFields: spec.observability?.redactFields ?? [],
    }
    return { executor: await executorOfSpec(reader, spec, namespace, source.name), ...rules }
  }
  if (source.kind === 'LanguageTool') {
    const target = await mcpTargetAt(reader, `${source.namespace}/${source.name}`)
    return {
      executor: target
        ? { kind: 'mcp', target, upstreamName: tool.upstreamName ?? lastSegment(tool.name) }
        : gone(`LanguageTool "${source.namespace}/${source.name}"`),
      ...defaults,
    }
  }
  if (source.kind === 'Connector') {
    const found = (await reader.connectors()).get(source.name)
    const ref = found?.spec.languageTool ? qualifyRef(found.spec.languageTool, found.namespace) : null
    const target = ref ? await mcpTargetAt(reader, ref) : null
    return {
      executor: target
        ? { kind: 'mcp', target, upstreamName: tool.upstreamName ?? lastSegment(tool.name) }
        : gone(`the MCP server of connector "${source.name}"`),
      ...defaults,
    }
  }
  // Image tools are the agent's own code: it runs them and reports the calls (POST /api/v1/calls/ingest).
  return {
    executor: { kind: 'none', reason: `${tool.name} is a tool of the agent's own image: the agent runs it and reports the call to POST /api/v1/calls/ingest` },
    ...defaults,
  }
}

async function executorOfSpec(reader: BindingReader, spec: ToolSpec, namespace: string, name: string): Promise<Executor> {
  switch (spec.type) {
    case 'rest':
      return { kind: 'rest', endpoint: spec.endpoint!, namespace }
    case 'mcp': {
      const target = await mcpTargetAt(reader, qualifyRef(spec.mcpServerRef!.name, namespace))
      return target ? { kind: 'mcp', target, upstreamName: spec.mcpServerRef!.tool ?? lastSegment(name) } : gone(`LanguageTool "${spec.mcpServerRef!.name}"`)
    }
    case 'os':
      return { kind: 'os', command: spec.command! }
    case 'function':
      return { kind: 'none', reason: `${name} is a function tool: it runs in the agent's code, which reports the call to POST /api/v1/calls/ingest` }
  }
}

const gone = (what: string): Executor => ({ kind: 'none', reason: `${what} does not exist` })
