// `rest` tools: one HTTP request to the declared endpoint with the referenced secret injected
// (bearer, basic or a named header), or the access token an `oauth2` credential gets. `{name}` in the URL takes that argument as one path segment or
// query value (url-template.ts: it cannot leave the declared origin and path prefix); the other
// arguments go in the query string (GET, DELETE) or as the JSON body. 502/503/504, timeouts and
// connection errors are transient; any other non-2xx answer is a failure of the tool.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { gatewayFetch } from '@/lib/outbound/outbound-clients'
import { OutboundError } from '@/lib/outbound/outbound-error'
import { isObject } from '@/lib/json/unknown-values'
import type { ToolSpec } from '@/lib/manifests/specs/tool'
import { readSecretValue } from '@/lib/secrets/read-secret-value'
import type { InjectedSecrets } from '../injected-secrets'
import { RPC, ToolFailure, TransientError } from '../tool-errors'
import { upstreamBearerToken } from '../upstream-credential'
import type { Person } from '@/lib/identity/person'
import { expandUrlTemplate, UrlTemplateError } from '@/lib/net/url-template'

type Endpoint = NonNullable<ToolSpec['endpoint']>
const TRANSIENT_STATUSES = new Set([502, 503, 504])

/** Resolves the auth header once per call (not per attempt); the secret joins the call's injected secrets. */
export async function restAuthHeaders(
  endpoint: Endpoint,
  namespace: string,
  secrets: InjectedSecrets,
  /** Whom the call is made for: a `token_exchange` credential sends their token. */
  person: Person | null | undefined,
): Promise<Record<string, string>> {
  const auth = endpoint.auth
  if (auth?.type === 'oauth2' && auth.oauth2) {
    const token = await upstreamBearerToken(auth.oauth2, namespace, person)
    secrets.add(token, `the access token of OAuth client "${auth.oauth2.clientId}"`)
    return { authorization: `Bearer ${token}` }
  }
  if (!auth || auth.type === 'none' || !auth.secretRef) return {}
  let value: string
  try {
    value = await readSecretValue(auth.secretRef, namespace)
  } catch (e) {
    throw new ToolFailure(`the tool's credential cannot be read: ${(e as Error).message}`, 'secret_unavailable')
  }
  secrets.add(value, `the credential in Secret "${auth.secretRef.name}"`, auth.type === 'basic' ? 'basic' : 'plain')
  if (auth.type === 'bearer') return { authorization: `Bearer ${value}` }
  if (auth.type === 'basic') return { authorization: `Basic ${Buffer.from(value).toString('base64')}` }
  return { [auth.header ?? 'x-api-key']: value }
}

export function buildRestRequest(endpoint: Endpoint, args: Record<string, unknown>): { url: string; body?: string } {
  let expanded: ReturnType<typeof expandUrlTemplate>
  try {
    expanded = expandUrlTemplate(endpoint.url, args)
  } catch (e) {
    if (e instanceof UrlTemplateError) throw new ToolFailure(e.message, 'url_template', e.argument ? { argument: e.argument } : {}, RPC.INVALID_PARAMS)
    throw e
  }
  const { url, used } = expanded
  const rest = Object.fromEntries(Object.entries(args).filter(([key]) => !used.has(key)))
  if (endpoint.method === 'GET' || endpoint.method === 'DELETE') {
    for (const [key, value] of Object.entries(rest))
      if (value !== undefined && value !== null) url.searchParams.append(key, typeof value === 'string' ? value : JSON.stringify(value))
    return { url: url.href }
  }
  return { url: url.href, body: JSON.stringify(rest) }
}

export async function executeRest(
  endpoint: Endpoint,
  args: Record<string, unknown>,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  /** This attempt's share of the call's deadline (what is left of it: lib/gateway/retry.ts). */
  attemptMs: number,
): Promise<CallToolResult> {
  const { url, body } = buildRestRequest(endpoint, args)
  let response: Response
  let text: string
  try {
    response = await gatewayFetch()(
      url,
      {
        method: endpoint.method,
        headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body,
        signal,
      },
      { timeoutMs: attemptMs },
    )
    text = await response.text()
  } catch (e) {
    if (e instanceof OutboundError && (e.failure === 'network' || e.failure === 'timeout')) throw new TransientError(e.message, { failure: e.failure })
    if (e instanceof OutboundError) throw new ToolFailure(e.message, `outbound_${e.failure}`)
    throw e
  }
  if (TRANSIENT_STATUSES.has(response.status)) throw new TransientError(`the endpoint answered ${response.status}`, { status: response.status }, text)
  if (!response.ok)
    throw new ToolFailure(
      `the endpoint answered ${response.status} ${response.statusText}`.trim(),
      'upstream_status',
      { status: response.status, body: text.slice(0, 2000) },
      RPC.INTERNAL_ERROR,
      text,
    )
  let json: unknown = undefined
  if (/json/i.test(response.headers.get('content-type') ?? '') && text) {
    try {
      json = JSON.parse(text)
    } catch {
      // not JSON after all: passed on as text
    }
  }
  return {
    content: [{ type: 'text', text }],
    ...(isObject(json) ? { structuredContent: json } : {}),
  }
}
