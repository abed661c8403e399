// The routes of an MCP target, from its endpoint.
import { McpIntrospectionError } from './errors'

/** Where a target's routes are: health at the server root, MCP at the endpoint (or `/mcp`), SSE candidates. */
export function mcpTargetUrls(endpoint: string): { health: URL; mcp: URL; sse: URL[] } {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw new McpIntrospectionError('endpoint', `endpoint "${endpoint}" is not a valid URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new McpIntrospectionError('endpoint', `endpoint "${endpoint}" is not an http(s) URL`)
  url.hash = ''
  const health = new URL('/health', url)
  const mcp = new URL(url)
  if (mcp.pathname === '/') mcp.pathname = '/mcp'
  const sse = [new URL(url), new URL('/sse', url)].filter((u, i, all) => all.findIndex((o) => o.href === u.href) === i)
  return { health, mcp, sse }
}
