// Ranks an agent's own tools for a task described in words (docs/design/effective-tools.md#tool-search):
// BM25 (MiniSearch) over the tool's name, server, description, parameters and side effects, with the
// words of search-terms.ts. Pure: the index holds only the tools it was built from.
import MiniSearch from 'minisearch'
import { SYNONYM_MARK, splitWords, termsOf } from './search-terms'

/** What the search reads of a tool. */
export interface SearchableTool {
  name: string
  description: string
  inputSchema: unknown
  /** The server or connector that offers it, e.g. `zendesk`. */
  server: string | null
  /** Side-effect level and annotation words, e.g. `read_only`, `destructive`. */
  traits: readonly string[]
}

export interface ToolMatch {
  name: string
  score: number
}

/** Field weights: a word of the name says most, one of a parameter's description least. */
const BOOST = { name: 3, server: 2, description: 1.5, params: 0.7, traits: 0.3 }

/** How much of one field is read: a hostile or verbose tool cannot make the index large. */
const FIELD_CHARS = 4_000
/** Parameters read per schema level, and levels read. */
const PARAMS_PER_LEVEL = 50
const PARAM_DEPTH = 2

/** A word met only through a synonym counts half the word itself. */
const SYNONYM_WEIGHT = 0.5

export const QUERY_CHARS = 1_000
export const MAX_RESULTS = 50

const tokenize = (text: string) => splitWords(text.slice(0, FIELD_CHARS))
const processTerm = (term: string) => termsOf(term)

interface Doc {
  id: number
  name: string
  server: string
  description: string
  params: string
  traits: string
}

export interface ToolIndex {
  readonly size: number
  search(query: string, opts?: { limit?: number; only?: (name: string) => boolean }): ToolMatch[]
}

export function buildToolIndex(tools: readonly SearchableTool[]): ToolIndex {
  const names = tools.map((t) => t.name)
  const index = new MiniSearch<Doc>({
    fields: ['name', 'server', 'description', 'params', 'traits'],
    tokenize,
    processTerm,
  })
  index.addAll(
    tools.map((t, id) => ({
      id,
      name: t.name,
      server: t.server ?? '',
      description: t.description,
      params: paramText(t.inputSchema),
      traits: t.traits.join(' '),
    })),
  )
  return {
    size: tools.length,
    search(query, opts = {}) {
      const limit = Math.min(Math.max(1, opts.limit ?? 10), MAX_RESULTS)
      const only = opts.only
      const hits = index.search(query.slice(0, QUERY_CHARS), {
        boost: BOOST,
        combineWith: 'OR',
        boostTerm: (term) => (term.startsWith(SYNONYM_MARK) ? SYNONYM_WEIGHT : 1),
        ...(only ? { filter: (r) => only(names[r.id as number]) } : {}),
      })
      return hits.slice(0, limit).map((h) => ({ name: names[h.id as number], score: Math.round(h.score * 1000) / 1000 }))
    },
  }
}

/** Parameter names and descriptions, breadth first, bounded in count and depth. */
function paramText(schema: unknown): string {
  const parts: string[] = []
  let level: unknown[] = [schema]
  for (let depth = 0; depth < PARAM_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = []
    for (const node of level) {
      const properties = (node as { properties?: unknown } | null)?.properties
      if (!properties || typeof properties !== 'object') continue
      for (const [key, value] of Object.entries(properties).slice(0, PARAMS_PER_LEVEL)) {
        parts.push(key)
        const description = (value as { description?: unknown } | null)?.description
        if (typeof description === 'string') parts.push(description.slice(0, 200))
        const items = (value as { items?: unknown } | null)?.items
        next.push(value, ...(items ? [items] : []))
      }
    }
    level = next
  }
  return parts.join(' ').slice(0, FIELD_CHARS)
}
