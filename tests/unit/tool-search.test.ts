// The ranking of tool search, pure: words and their forms, synonyms, the fields it reads, and that an
// index answers only with the tools it was built from.
import { describe, expect, it } from 'vitest'
import { buildToolIndex, type SearchableTool } from '@/lib/tool-search/rank-tools'
import { splitWords, stem, termsOf } from '@/lib/tool-search/search-terms'

const tool = (name: string, description: string, extra: Partial<SearchableTool> = {}): SearchableTool => ({
  name,
  description,
  inputSchema: { type: 'object' },
  server: name.split('.')[0],
  traits: ['read_only'],
  ...extra,
})

const TOOLS = [
  tool('stripe.create_refund', 'Refund a charge, in full or in part.', {
    inputSchema: { type: 'object', properties: { charge: { type: 'string', description: 'The charge to give money back for' }, amount: { type: 'integer' } } },
  }),
  tool('stripe.list_charges', 'Lists charges, newest first.'),
  tool('zendesk.create_ticket', 'Create a support ticket for an end user.'),
  tool('zendesk.delete_ticket', 'Delete a ticket permanently.', { traits: ['external_write', 'destructive'] }),
  tool('github.createPullRequest', 'Opens a pull request from a branch.'),
  tool('github.get_issue', 'Get one issue of a repository by its number.'),
  tool('slack.post_message', 'Post a message to a channel.'),
  tool('k8s.rollout_restart', 'Restart the pods of a deployment one by one.'),
]
const index = buildToolIndex(TOOLS)
const top = (query: string, n = 1) => index.search(query, { limit: n }).map((m) => m.name)

describe('search terms', () => {
  it('splits snake_case, camelCase, dots and digits into lower-case words', () => {
    expect(splitWords('github.createPullRequest')).toEqual(['github', 'create', 'pull', 'request'])
    expect(splitWords('zendesk.create_ticket')).toEqual(['zendesk', 'create', 'ticket'])
    expect(splitWords('getHTTPResponse v2')).toEqual(['get', 'http', 'response', 'v2'])
  })

  it('brings a word and its forms to one stem', () => {
    const forms = (...words: string[]) => new Set(words.map(stem))
    expect(forms('create', 'creates', 'created', 'creating', 'creation').size).toBe(1)
    expect(forms('refund', 'refunds', 'refunded', 'refunding').size).toBe(1)
    expect(forms('policy', 'policies').size).toBe(1)
    expect(forms('address', 'addresses').size).toBe(1)
    expect(forms('run', 'running').size).toBe(1)
    expect(forms('bill', 'billing').size).toBe(1)
    expect(stem('status')).toBe('status')
    expect(stem('k8s')).toBe('k8s')
  })

  it('gives a word its synonym groups, and a stop word nothing', () => {
    expect(termsOf('open')).toContain('~creat')
    expect(termsOf('Creating')).toContain('~creat')
    expect(termsOf('show')).toEqual(expect.arrayContaining(['~get', '~list']))
    expect(termsOf('the')).toEqual([])
  })
})

describe('tool ranking', () => {
  it('finds a tool by a word of its name in another form', () => {
    expect(top('refund')).toEqual(['stripe.create_refund'])
    expect(top('refunding a customer')).toEqual(['stripe.create_refund'])
  })

  it('finds a tool by a synonym of its verb', () => {
    expect(top('open a ticket')).toEqual(['zendesk.create_ticket'])
    expect(top('remove a ticket')).toEqual(['zendesk.delete_ticket'])
    expect(top('send a chat to the team channel')).toEqual(['slack.post_message'])
    expect(top('bounce the pods')).toEqual(['k8s.rollout_restart'])
  })

  it('reads camelCase names, parameter descriptions and the server', () => {
    expect(top('create a pull request')).toEqual(['github.createPullRequest'])
    expect(top('give money back')).toEqual(['stripe.create_refund'])
    expect(top('github issue 42')).toEqual(['github.get_issue'])
  })

  it('answers only with the tools it was built from, and none for a query of stop words', () => {
    const names = new Set(TOOLS.map((t) => t.name))
    for (const q of ['delete everything', 'refund', 'x', 'a'.repeat(5000), 'toolroom.call_tool', '*', '']) {
      for (const m of index.search(q, { limit: 50 })) expect(names.has(m.name)).toBe(true)
    }
    expect(index.search('the of a')).toEqual([])
  })

  it('keeps to the filter and the limit', () => {
    expect(index.search('create', { limit: 50, only: (n) => n.startsWith('zendesk.') }).map((m) => m.name)).toEqual(['zendesk.create_ticket'])
    expect(index.search('create ticket refund message', { limit: 2 })).toHaveLength(2)
    expect(index.search('create ticket refund message', { limit: 500 }).length).toBeLessThanOrEqual(50)
  })

  it('ranks the better match first, with falling scores', () => {
    const matches = index.search('delete the ticket', { limit: 3 })
    expect(matches[0].name).toBe('zendesk.delete_ticket')
    expect(matches[1].name).toBe('zendesk.create_ticket')
    expect(matches[0].score).toBeGreaterThan(matches[1].score)
  })
})
