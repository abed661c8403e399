// Bounds a manifest's shape before any parser sees it, in one linear pass over the text: the number
// of documents and how deeply collections nest. The YAML parser takes seconds on a megabyte of `---`
// or of nested brackets and overflows the stack on deep nesting; this answers in milliseconds. The
// nesting measured is an upper bound (every deeper block line, compact `- `/`? ` entry or flow
// bracket counts as a level), so real manifests stay far below it.
import type { FieldError } from '@/lib/errors/app-error'

export const MAX_DOCUMENTS = 2000
export const MAX_DEPTH = 100

export function checkManifestShape(text: string): FieldError | null {
  let documents = 0
  let maxDepth = 0
  let flow = 0
  const indents: number[] = []
  let quote: '"' | "'" | null = null
  let lineStart = 0
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart)
    if (lineEnd === -1) lineEnd = text.length
    let i = lineStart
    // A quoted scalar is taken to end with its line: a scalar that goes on is then read as structure,
    // which can only overestimate the depth, never hide nesting from this count.
    quote = null
    if (text.startsWith('---', i) && (i + 3 >= lineEnd || /\s/.test(text[i + 3]))) {
      if (++documents > MAX_DOCUMENTS + 1) return tooMany()
      indents.length = 0
      flow = 0
    }
    if (flow === 0) {
      while (i < lineEnd && text[i] === ' ') i++
      const indent = i - lineStart
      if (i < lineEnd && text[i] !== '#' && text[i] !== '\r') {
        while (indents.length && indents[indents.length - 1] >= indent) indents.pop()
        indents.push(indent)
      }
    }
    let compact = 0
    let tokenStart = true
    for (; i < lineEnd; i++) {
      const c = text[i]
      if (quote === '"') {
        if (c === '\\') i++
        else if (c === '"') quote = null
        continue
      }
      if (quote === "'") {
        if (c === "'") {
          if (text[i + 1] === "'") i++
          else quote = null
        }
        continue
      }
      if (c === ' ' || c === '\t') continue
      if (c === '#' && (i === lineStart || text[i - 1] === ' ' || text[i - 1] === '\t')) break
      if (tokenStart && (c === '"' || c === "'")) {
        quote = c
        tokenStart = false
        continue
      }
      if (tokenStart && (c === '[' || c === '{')) {
        flow++
      } else if (flow > 0 && (c === ']' || c === '}')) {
        flow--
      } else if ((c === '-' || c === '?' || c === ':') && (i + 1 >= lineEnd || text[i + 1] === ' ')) {
        if (flow === 0) compact++
      } else if (c === ':' && flow > 0) {
        // `"a":{` in flow (and JSON) needs no space after the colon
      } else if (c !== ',' || flow === 0) {
        tokenStart = false
        continue
      }
      tokenStart = true
      const depth = indents.length + compact + flow
      if (depth > maxDepth) maxDepth = depth
      if (maxDepth > MAX_DEPTH) return tooDeep()
    }
    const depth = indents.length + compact + flow
    if (depth > maxDepth) maxDepth = depth
    if (maxDepth > MAX_DEPTH) return tooDeep()
    lineStart = lineEnd + 1
  }
  return null
}

const tooMany = (): FieldError => ({ field: '(manifest)', rule: 'max-documents', message: `a manifest holds at most ${MAX_DOCUMENTS} documents` })
const tooDeep = (): FieldError => ({ field: '(manifest)', rule: 'max-depth', message: `collections nest at most ${MAX_DEPTH} levels deep in a manifest` })

/** Most repeated keys of a JSON text reported at once. */
export const MAX_DUPLICATE_KEYS_REPORTED = 100

/**
 * The keys that appear twice in one object of a JSON text that JSON.parse accepted (which keeps the
 * last silently, so `"kind"` given twice would decide the kind unseen), each with its path and the
 * offset of its repetition in the text; at most `max` of them.
 */
export function duplicateJsonKeys(text: string, max = MAX_DUPLICATE_KEYS_REPORTED): Array<{ path: (string | number)[]; key: string; offset: number }> {
  type Frame = { keys: Set<string> | null; index: number; key: string | number | null }
  const found: Array<{ path: (string | number)[]; key: string; offset: number }> = []
  const stack: Frame[] = []
  let expectKey = false
  for (let i = 0; i < text.length && found.length < max; i++) {
    const c = text[i]
    if (c === '"') {
      let j = i + 1
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      const top = stack[stack.length - 1]
      if (expectKey && top?.keys) {
        const key = JSON.parse(text.slice(i, j + 1)) as string
        if (top.keys.has(key)) found.push({ path: [...stack.slice(0, -1).map((f) => f.key as string | number), key], key, offset: i })
        top.keys.add(key)
        top.key = key
        expectKey = false
      }
      i = j
    } else if (c === '{') {
      stack.push({ keys: new Set(), index: 0, key: null })
      expectKey = true
    } else if (c === '[') {
      stack.push({ keys: null, index: 0, key: 0 })
    } else if (c === '}' || c === ']') {
      stack.pop()
    } else if (c === ',') {
      const top = stack[stack.length - 1]
      if (top?.keys) expectKey = true
      else if (top) top.key = ++top.index
    }
  }
  return found
}
