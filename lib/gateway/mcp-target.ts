// Where and how the gateway reaches an MCP server: over the transport its last discovery reached it
// by, at the URL it used. Only URLs of the server's current endpoint count, so a stale record (the
// endpoint changed, rediscovery pending) never sends calls elsewhere; without one, streamable HTTP.
import type { McpTransportUsed } from '@/lib/discovery/introspect-mcp-server'
import { mcpTargetUrls } from '@/lib/discovery/mcp/target-urls'

export function mcpTargetOf(
  endpoint: string,
  detected: { detectedTransport: string | null; detectedUrl: string | null },
): { url: string; transport: McpTransportUsed } {
  const urls = mcpTargetUrls(endpoint)
  if (detected.detectedTransport === 'sse') {
    const stream = urls.sse.find((u) => u.href === detected.detectedUrl)
    if (stream) return { url: stream.href, transport: 'sse' }
  }
  if (detected.detectedTransport === 'stateless-post') return { url: urls.mcp.href, transport: 'stateless-post' }
  if (detected.detectedTransport === 'streamable-http-2026-07-28') return { url: urls.mcp.href, transport: 'streamable-http-2026-07-28' }
  return { url: urls.mcp.href, transport: 'streamable-http' }
}
