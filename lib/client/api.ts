// The portal's only way to the server: typed fetches of the REST API. Errors keep the problem+json
// `detail` and per-field `errors` so forms can show exactly which rule a document broke.
import type { FieldError } from '@/lib/errors/app-error'
import type { ComplianceReport } from '@/lib/discovery/mcp-compliance'
import type { EffectiveTool, UnresolvedReference } from '@/lib/effective-tools/types'
import type { ResourceView } from '@/lib/resources/resource-view'
import type { ApplyAnswer } from './apply-answer'

export type { ComplianceReport, FieldError }

export class ApiError extends Error {
  readonly status: number
  readonly title: string
  readonly errors: FieldError[]

  constructor(status: number, title: string, detail: string, errors: FieldError[] = []) {
    super(detail)
    this.name = 'ApiError'
    this.status = status
    this.title = title
    this.errors = errors
  }
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '')
  try {
    const problem = JSON.parse(text) as { title?: string; detail?: string; errors?: FieldError[] }
    return new ApiError(response.status, problem.title ?? response.statusText, problem.detail ?? problem.title ?? `HTTP ${response.status}`, problem.errors ?? [])
  } catch {
    // Not problem+json (a proxy page, a crash): keep the status so the user can tell what happened.
    return new ApiError(response.status, response.statusText, `HTTP ${response.status} ${response.statusText}`.trim())
  }
}

async function request(path: string, init?: RequestInit): Promise<Response> {
  let response: Response
  try {
    response = await fetch(path, { ...init, headers: { accept: 'application/json', ...init?.headers } })
  } catch (error) {
    throw new ApiError(0, 'Network error', `could not reach the server: ${(error as Error).message}`)
  }
  if (!response.ok) throw await failure(response)
  return response
}

export async function apiFetch<T>(path: string, init?: RequestInit): Promise<T> {
  return (await request(path, init)).json() as Promise<T>
}

export async function apiText(path: string, init?: RequestInit): Promise<string> {
  return (await request(path, { ...init, headers: { accept: 'application/yaml, text/plain, */*', ...init?.headers } })).text()
}

/** Query string from a record, leaving out empty values; arrays repeat the key. */
export function qs(params: Record<string, string | string[] | number | undefined | null>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue
    for (const v of Array.isArray(value) ? value : [String(value)]) if (v !== '') search.append(key, v)
  }
  const s = search.toString()
  return s ? `?${s}` : ''
}

// ---- answer shapes --------------------------------------------------------------------------

export type Plural = 'tools' | 'languagetools' | 'connectors' | 'units' | 'agents' | 'secrets' | 'sideeffectpolicies'
export type Resource<S = Record<string, unknown>, St = Record<string, unknown>> = Omit<ResourceView, 'spec' | 'status'> & { spec: S; status?: St }
export interface Page<T> {
  items: T[]
  nextCursor: string | null
}

export interface ImageToolsStatus {
  digest: string | null
  source: string | null
  updatedAt: string | null
  count: number
}
export interface FleetStatus {
  endpoint?: string
  imageDigest: string | null
  imageTools: ImageToolsStatus
}
export interface EffectiveToolsAnswer {
  effectiveTools: EffectiveTool[]
  excluded?: EffectiveTool[]
  unresolved: UnresolvedReference[]
}
export interface ImageToolDefinition {
  name: string
  description: string
  inputSchema: unknown
}
export interface ImageToolsAnswer {
  digest: string | null
  source: string | null
  updatedAt: string | null
  tools: ImageToolDefinition[]
}
export interface Overview {
  counts: { tools: number; languageTools: number; connectors: number; units: number; agents: number; secrets: number }
  toolsByLevel: { level: string; count: number }[]
  toolsByType: { type: string; count: number }[]
  languageToolsByPhase: { phase: string; count: number }[]
  namespaces: string[]
}
export type { ApplyAction, ApplyAnswer } from './apply-answer'

// ---- discovery ------------------------------------------------------------------------------

export type DiscoverySubjectKind = 'Agent' | 'Unit' | 'LanguageTool'
export type DiscoveryTrigger = 'created' | 'rotation' | 'changed' | 'manual' | 'periodic'
export type DiscoveryRunStatus = 'running' | 'succeeded' | 'failed'
export type SurfaceChangeStatus = 'applied' | 'pending_review' | 'accepted' | 'rejected'

/**
 * What a run recorded. Image runs: endpoint, refused entries (field, rule, message), readiness
 * attempts, timings {readyMs, toolsMs}, the agent card and a one-line diff; a failed one has the step
 * and kind of failure. MCP runs: endpoint, transport, health, refused entries (name, reason),
 * timings {readyMs, listMs}, the diff and whether a change was held.
 */
export interface DiscoveryRunDetails {
  endpoint?: string
  refused?: Array<{ field?: string; rule?: string; message?: string; name?: string; reason?: string }>
  attempts?: number
  timings?: { readyMs?: number; toolsMs?: number; listMs?: number }
  agentCard?: { name?: string; version?: string } | null
  diff?: string
  step?: string
  failure?: string
  transport?: string
  health?: string
  held?: boolean
}

export interface DiscoveryRun {
  id: string
  subjectKind: DiscoverySubjectKind
  subjectId: string
  namespace: string
  name: string
  trigger: DiscoveryTrigger | string
  status: DiscoveryRunStatus | string
  attempt: number
  digest: string | null
  toolCount: number | null
  error: string | null
  details: DiscoveryRunDetails | null
  startedAt: string
  finishedAt: string | null
}

/** One tool of a surface as discovered: an image tool or an MCP tools/list entry. */
export interface SurfaceTool {
  name: string
  title?: string
  description?: string
  inputSchema?: unknown
  annotations?: Record<string, unknown>
  [field: string]: unknown
}

export interface SurfaceDiff {
  added: SurfaceTool[]
  removed: SurfaceTool[]
  changed: Array<{ name: string; fields: string[]; before: SurfaceTool; after: SurfaceTool }>
  reordered: boolean
}

export interface SurfaceChange {
  id: string
  subjectKind: DiscoverySubjectKind
  subjectId: string
  namespace: string
  name: string
  runId: string | null
  diff: SurfaceDiff
  status: SurfaceChangeStatus | string
  proposed: SurfaceTool[] | null
  decidedBy: string | null
  decidedAt: string | null
  comment: string | null
  detectedAt: string
}

export interface DiscoveryQueued {
  queued: boolean
  subject: { kind: DiscoverySubjectKind; id: string; name: string; namespace: string }
}

export interface DiscoveryFilters {
  subjectKind?: DiscoverySubjectKind | ''
  subjectId?: string
  status?: string
  limit?: number
}

// ---- fetchers -------------------------------------------------------------------------------

export type ListParams = Record<string, string | string[] | number | undefined>

export function listResources<T>(plural: Plural, params: ListParams, cursor?: string | null) {
  return apiFetch<Page<T>>(`/api/v1/${plural}${qs({ ...params, cursor: cursor ?? undefined })}`)
}

// Pages that need a whole collection (the unit tree, "where is this connector bound") walk the
// cursor; the cap keeps a runaway registry from freezing the browser.
export async function listAll<T>(plural: Plural, params: ListParams = {}, maxPages = 20): Promise<T[]> {
  const items: T[] = []
  let cursor: string | null = null
  for (let page = 0; page < maxPages; page++) {
    const answer: Page<T> = await listResources<T>(plural, { ...params, limit: 500 }, cursor)
    items.push(...answer.items)
    if (!answer.nextCursor) break
    cursor = answer.nextCursor
  }
  return items
}

function resourcePath(plural: Plural, id: string, namespace?: string, suffix = '') {
  return `/api/v1/${plural}/${encodeURIComponent(id)}${suffix}${qs({ namespace })}`
}

export function getResource<T>(plural: Plural, id: string, namespace?: string) {
  return apiFetch<T>(resourcePath(plural, id, namespace))
}

export function getEffectiveTools(plural: 'agents' | 'units', id: string, namespace?: string) {
  return apiFetch<EffectiveToolsAnswer>(`${resourcePath(plural, id, namespace, '/effective-tools')}${namespace ? '&' : '?'}include=excluded`)
}

export function getImageTools(plural: 'agents' | 'units', id: string, namespace?: string) {
  return apiFetch<ImageToolsAnswer>(resourcePath(plural, id, namespace, '/image-tools'))
}

export function putImageTools(plural: 'agents' | 'units', id: string, namespace: string | undefined, body: { digest?: string; tools: unknown[] }) {
  return apiFetch<ImageToolsAnswer>(resourcePath(plural, id, namespace, '/image-tools'), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

export function getAgentConfigYaml(id: string, namespace?: string) {
  return apiText(resourcePath('agents', id, namespace, '/config.yaml'))
}

export function getOverview() {
  return apiFetch<Overview>('/api/v1/overview')
}

export function applyManifest(text: string, dryRun: boolean): Promise<ApplyAnswer> {
  // JSON documents start with { or [; everything else is sent as YAML, which is also a superset.
  const json = /^\s*[[{]/.test(text)
  return apiFetch<ApplyAnswer>(`/api/v1/apply${dryRun ? '?dryRun=true' : ''}`, {
    method: 'POST',
    headers: { 'content-type': json ? 'application/json' : 'application/yaml' },
    body: text,
  })
}

export type RefreshPlural = 'agents' | 'units' | 'languagetools'

/** Queues a discovery run of the subject now (202). */
export function refreshDiscovery(plural: RefreshPlural, id: string, namespace?: string) {
  return apiFetch<DiscoveryQueued>(resourcePath(plural, id, namespace, '/refresh'), { method: 'POST' })
}

export function listDiscoveryRuns(filters: DiscoveryFilters, cursor?: string | null) {
  return apiFetch<Page<DiscoveryRun>>(`/api/v1/discovery/runs${qs({ ...filters, cursor: cursor ?? undefined })}`)
}

export function listSurfaceChanges(filters: DiscoveryFilters, cursor?: string | null) {
  return apiFetch<Page<SurfaceChange>>(`/api/v1/discovery/changes${qs({ ...filters, cursor: cursor ?? undefined })}`)
}

/** Accepts or rejects a held change; 409 when someone decided it first. */
export function decideSurfaceChange(id: string, decision: 'accept' | 'reject', comment?: string) {
  return apiFetch<SurfaceChange>(`/api/v1/discovery/changes/${encodeURIComponent(id)}/${decision}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(comment ? { comment } : {}),
  })
}
