// Typed fetches of the REST API for the portal's registry, Apply and discovery pages, and the fetch
// helpers every lib/client module builds on (apiFetch, apiText, qs, ApiError). Answer types are the
// contracts' schemas (lib/api), never copies. Errors keep the problem+json `detail` and per-field
// `errors` so forms can show exactly which rule a document broke.
import type { z } from 'zod'
import type { DISCOVERY_CONTRACTS, discoveryRunSchema, surfaceChangeSchema, surfaceDiffSchema, surfaceToolSchema } from '@/lib/api/discovery-routes'
import type { effectiveToolsAnswer, imageToolDefinition, imageToolsAnswer, overviewSchema, pageSchema, resourceSchema } from '@/lib/api/schemas'
import type { ComplianceReport } from '@/lib/discovery/mcp-compliance'
import type { fieldErrorSchema } from '@/lib/http/problem-schema'
import type { Kind } from '@/lib/manifests/kinds'
import type { ApplyAnswer } from './apply-answer'

export type { ComplianceReport }
/** One broken rule of a problem answer: where (document, field) and which rule. */
export type FieldError = z.output<typeof fieldErrorSchema>

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
    return new ApiError(
      response.status,
      problem.title ?? response.statusText,
      problem.detail ?? problem.title ?? `HTTP ${response.status}`,
      problem.errors ?? [],
    )
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

// ---- answer shapes: the contracts' own schemas (lib/api), as the server's answers parse ------

/** The answer a route contract declares (`typeof SOME_CONTRACTS.name`). */
export type AnswerOf<C> = C extends { response: infer R extends z.ZodType } ? z.output<R> : never
/** The JSON body a route contract takes, as the client writes it. */
export type BodyOf<C> = C extends { body: infer B extends z.ZodType } ? z.input<B> : never
/** The query parameters a route contract takes (but `Except`), as a URL carries them: strings the route parses and checks. */
export type QueryParamsOf<C, Except extends string = never> = C extends { query: infer Q extends z.ZodType }
  ? { [K in Exclude<keyof z.input<Q>, Except>]?: string }
  : never

export type Plural = 'tools' | 'languagetools' | 'connectors' | 'units' | 'agents' | 'secrets' | 'sideeffectpolicies' | 'identityproviders'
/** A resource with its spec and status typed by the caller (the kind's spec schema, the page's status reading). */
export type Resource<S = Record<string, unknown>, St = Record<string, unknown>> = Omit<
  z.output<ReturnType<typeof resourceSchema>>,
  'kind' | 'spec' | 'status'
> & {
  kind: Kind
  spec: S
  status?: St
}
export type Page<T> = Omit<z.output<ReturnType<typeof pageSchema>>, 'items'> & { items: T[] }

// Resource status is declared per kind by the pages that read it (the contract says only "an object").
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
export type EffectiveToolsAnswer = z.output<typeof effectiveToolsAnswer>
export type EffectiveTool = EffectiveToolsAnswer['effectiveTools'][number]
export type Tier = EffectiveTool['tier']
export type ImageToolDefinition = z.output<typeof imageToolDefinition>
export type ImageToolsAnswer = z.output<typeof imageToolsAnswer>
export type Overview = z.output<typeof overviewSchema>
export type { ApplyAction, ApplyAnswer } from './apply-answer'

// ---- discovery ------------------------------------------------------------------------------

export type DiscoveryRun = z.output<typeof discoveryRunSchema>
export type DiscoverySubjectKind = DiscoveryRun['subjectKind']
export type DiscoveryTrigger = DiscoveryRun['trigger']
export type DiscoveryRunStatus = DiscoveryRun['status']
export type DiscoveryRunDetails = NonNullable<DiscoveryRun['details']>
export type SurfaceTool = z.output<typeof surfaceToolSchema>
export type SurfaceDiff = z.output<typeof surfaceDiffSchema>
export type SurfaceChange = z.output<typeof surfaceChangeSchema>
export type SurfaceChangeStatus = SurfaceChange['status']
export type DiscoveryQueued = z.output<typeof DISCOVERY_CONTRACTS.refreshAgent.response>

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
