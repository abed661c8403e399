// Where the headers of every outbound request are assembled: each hop of the guarded fetch
// (discovery, REST tools, webhooks) and each request of the gateway's MCP sessions. Anything every
// outbound request should carry is added here, once: with tracing on, the active trace's
// traceparent (W3C Trace Context), so upstreams continue it.
import { withTraceContext } from '@/lib/observability/tracing'

/** What fetch() sends unless told otherwise; servers may negotiate on accept. */
export const FETCH_DEFAULT_HEADERS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'undici',
}

/** The caller's headers (names in lower case), then each default the caller did not set, then the trace context. */
export function outboundHeaders(given: HeadersInit | undefined, defaults: Readonly<Record<string, string>> = {}): Record<string, string> {
  const headers: Record<string, string> = {}
  new Headers(given).forEach((value, name) => (headers[name] = value))
  for (const [name, value] of Object.entries(defaults)) headers[name] ??= value
  return withTraceContext(headers)
}

/** Headers that carry no credential, the only ones that follow a redirect to another origin. */
const PORTABLE_HEADERS = new Set(['accept', 'accept-language', 'content-type', 'user-agent', 'mcp-protocol-version'])

/**
 * The headers a redirect to another origin may carry. Credentials stay with their origin, as browsers
 * and undici do; and since an operator's auth headers can have any name (X-Api-Key), every header but
 * the plain content ones is dropped.
 */
export function crossOriginHeaders(given: HeadersInit | undefined): Headers {
  const kept = new Headers()
  new Headers(given).forEach((value, name) => {
    if (PORTABLE_HEADERS.has(name)) kept.set(name, value)
  })
  return kept
}
