// Where the gateway reaches an MCP server: the transport and URL discovery found, only while they
// belong to the server's current endpoint.
import { describe, expect, it } from 'vitest'
import { mcpTargetOf } from '@/lib/gateway/mcp-target'

describe('mcpTargetOf', () => {
  it('uses the SSE stream discovery reached, at the endpoint or its /sse', () => {
    expect(mcpTargetOf('http://h:8080', { detectedTransport: 'sse', detectedUrl: 'http://h:8080/sse' })).toEqual({ url: 'http://h:8080/sse', transport: 'sse' })
    expect(mcpTargetOf('http://h:8080/events', { detectedTransport: 'sse', detectedUrl: 'http://h:8080/events' })).toEqual({
      url: 'http://h:8080/events',
      transport: 'sse',
    })
  })

  it('plain POSTs go to the MCP endpoint', () => {
    expect(mcpTargetOf('http://h:8080', { detectedTransport: 'stateless-post', detectedUrl: 'http://h:8080/mcp' })).toEqual({
      url: 'http://h:8080/mcp',
      transport: 'stateless-post',
    })
  })

  it('a server discovered speaking MCP 2026-07-28 is called in that revision, at its endpoint', () => {
    expect(mcpTargetOf('http://h:8080', { detectedTransport: 'streamable-http-2026-07-28', detectedUrl: 'http://h:8080/mcp' })).toEqual({
      url: 'http://h:8080/mcp',
      transport: 'streamable-http-2026-07-28',
    })
  })

  it('never follows a recorded URL that is not one of the current endpoint (the endpoint changed since)', () => {
    expect(mcpTargetOf('http://new:9000/mcp', { detectedTransport: 'sse', detectedUrl: 'http://old:8080/sse' })).toEqual({
      url: 'http://new:9000/mcp',
      transport: 'streamable-http',
    })
    expect(mcpTargetOf('http://h:8080', { detectedTransport: 'sse', detectedUrl: 'http://169.254.169.254/sse' })).toEqual({
      url: 'http://h:8080/mcp',
      transport: 'streamable-http',
    })
  })

  it('without a discovery (or an unknown record), streamable HTTP at the endpoint, / meaning /mcp', () => {
    expect(mcpTargetOf('http://h:8080/', { detectedTransport: null, detectedUrl: null })).toEqual({ url: 'http://h:8080/mcp', transport: 'streamable-http' })
    expect(mcpTargetOf('http://h:8080/rpc', { detectedTransport: 'carrier-pigeon', detectedUrl: null })).toEqual({
      url: 'http://h:8080/rpc',
      transport: 'streamable-http',
    })
  })
})
