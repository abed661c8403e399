import { describe, expect, it } from 'vitest'
import { canonicalMcpToolId, canonicalSegment, isCanonicalToolId, reservedNamespaceOf } from '@/lib/tools/naming'

describe('canonical tool ids', () => {
  it.each(['acme.echo', 'zendesk.create_ticket', 'a.b.c', 'x1.y_2'])('accepts %s', (id) => expect(isCanonicalToolId(id)).toBe(true))
  it.each(['echo', 'Acme.echo', 'acme.Echo', 'acme-tools.echo', 'acme..echo', '.acme', 'acme.', '1acme.echo', 'acme.1echo', 'acme.echo ', ''])(
    'refuses %j',
    (id) => expect(isCanonicalToolId(id)).toBe(false),
  )
  it('refuses ids longer than 128 characters', () => expect(isCanonicalToolId(`a.${'b'.repeat(127)}`)).toBe(false))
})

describe('reserved namespaces', () => {
  const slugs = new Set(['github'])
  it('reserves toolroom.* and connector slugs', () => {
    expect(reservedNamespaceOf('toolroom.call_tool', slugs)).toBe('toolroom')
    expect(reservedNamespaceOf('github.create_issue', slugs)).toBe('github')
    expect(reservedNamespaceOf('acme.echo', slugs)).toBeNull()
  })
})

describe('canonical ids for upstream MCP names', () => {
  it.each([
    ['create-issue', 'create_issue'],
    ['listRepos', 'list_repos'],
    ['Search Docs', 'search_docs'],
    ['getHTTPStatus', 'get_http_status'],
    ['remember', 'remember'],
    ['2fa-check', 'fa_check'],
  ])('%s → %s', (upstream, segment) => expect(canonicalSegment(upstream)).toBe(segment))
  it('prefixes the server name', () => expect(canonicalMcpToolId('mem0-memory', 'remember')).toBe('mem0_memory.remember'))
  it('gives up on names with nothing canonical in them', () => expect(canonicalMcpToolId('github', '---')).toBeNull())
})
