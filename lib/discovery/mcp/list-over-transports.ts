// Listing over the transports, in order: the preferred one first, then the others, the stateless
// POSTs last; the failures are summed up in one McpIntrospectionError. Streamable HTTP is tried in
// the newest revision first (2026-07-28, SDK v2), then with the 2025-era handshake (SDK v1), unless
// the transport that worked last time is named (`remembered`): it is tried first, the others after it
// in the usual order, so a server whose era changed since is still found, one failed attempt later.
import { AttemptError, describeError, McpIntrospectionError, throwIfAborted } from './errors'
import { listOverModern } from './list-over-modern'
import { listOverPlainPosts } from './list-over-plain-posts'
import { listOverSdk } from './list-over-sdk'
import type { AttemptContext, Listing, McpTargetTransport, McpTransportUsed } from './listing'

interface Attempt {
  transport: McpTransportUsed
  url: URL
  label: string
  run: () => Promise<Listing>
}

/** The transport and URL a server was last reached by (the LanguageTool's detectedTransport and detectedUrl). */
export interface RememberedTransport {
  transport: string
  url: string
}

export async function listOverTransports(
  first: McpTargetTransport,
  urls: { mcp: URL; sse: URL[] },
  ctx: AttemptContext,
  remembered?: RememberedTransport,
): Promise<Listing> {
  const modern: Attempt = {
    transport: 'streamable-http-2026-07-28',
    url: urls.mcp,
    label: `streamable-http, MCP 2026-07-28 (POST ${urls.mcp.href})`,
    run: () => listOverModern(urls.mcp, ctx),
  }
  const streamable: Attempt = {
    transport: 'streamable-http',
    url: urls.mcp,
    label: `streamable-http (POST ${urls.mcp.href})`,
    run: () => listOverSdk('streamable-http', urls.mcp, ctx),
  }
  const sse: Attempt[] = urls.sse.map((url) => ({ transport: 'sse', url, label: `sse (GET ${url.href})`, run: () => listOverSdk('sse', url, ctx) }))
  const stateless: Attempt = {
    transport: 'stateless-post',
    url: urls.mcp,
    label: `stateless-post (POST ${urls.mcp.href})`,
    run: () => listOverPlainPosts(urls.mcp, ctx),
  }
  const attempts = inRememberedOrder(first === 'sse' ? [...sse, modern, streamable, stateless] : [modern, streamable, ...sse, stateless], remembered)

  const failures: Array<{ attempt: Attempt; error: AttemptError }> = []
  for (const attempt of attempts) {
    throwIfAborted(ctx.signal)
    try {
      return await attempt.run()
    } catch (e) {
      throwIfAborted(ctx.signal)
      const error = e instanceof AttemptError ? e : new AttemptError('initialize', describeError(e))
      failures.push({ attempt, error })
      // The server speaks MCP and refused tools/list itself: another transport will not do better.
      if (error.step === 'tools/list' && error.answered) break
    }
  }
  const listed = failures.find((f) => f.error.step === 'tools/list')
  if (listed) {
    const others = failures.filter((f) => f !== listed).map((f) => `${f.attempt.label}: ${f.error.message}`)
    throw new McpIntrospectionError(
      'tools/list',
      `tools/list failed over ${listed.attempt.label}: ${listed.error.message}${others.length ? `; other transports: ${others.join('; ')}` : ''}`,
    )
  }
  throw new McpIntrospectionError(
    'initialize',
    `initialize failed over all transports: ${failures.map((f) => `${f.attempt.label}: ${f.error.message}`).join('; ')}`,
  )
}

// Only a session transport moves up: plain POSTs also read many session servers, so trying them first
// would keep a server that answered them once on them for good. A remembered URL that is not one of
// this endpoint's (its address changed) moves nothing.
function inRememberedOrder(attempts: Attempt[], remembered: RememberedTransport | undefined): Attempt[] {
  const known = attempts.find((a) => a.transport !== 'stateless-post' && a.transport === remembered?.transport && a.url.href === remembered.url)
  return known ? [known, ...attempts.filter((a) => a !== known)] : attempts
}
