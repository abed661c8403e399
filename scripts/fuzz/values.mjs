// Values for the fuzzer: valid-ish ones derived from a JSON Schema (OpenAPI components or the MCP
// SDK's zod schemas turned into JSON Schema), and hostile ones (NUL, huge, deeply nested, wrong types,
// odd unicode). Every generator takes the case's seeded rng, so a case is reproducible.

/** Strings that have broken parsers, databases and logs somewhere. Tagged so a run can leave a class out. */
export const HOSTILE_STRINGS = [
  { tag: 'nul', value: 'a\u0000b' },
  { tag: 'nul', value: '\u0000' },
  { tag: 'unicode', value: '\ud800' }, // lone surrogate
  { tag: 'unicode', value: '\u202e\u0301\ufeff\u200b' },
  { tag: 'unicode', value: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🧨 中文 العربية' },
  { tag: 'text', value: '' },
  { tag: 'text', value: ' ' },
  { tag: 'text', value: '../../etc/passwd' },
  { tag: 'text', value: "' OR 1=1 --" },
  { tag: 'text', value: '<script>alert(1)</script>' },
  { tag: 'text', value: '{{ args.x }}${process.env.X}%s%n' },
  { tag: 'text', value: '%ff%00%' },
  { tag: 'text', value: 'http://169.254.169.254/latest/meta-data/' },
  { tag: 'text', value: '\r\nX-Injected: 1' },
  { tag: 'text', value: 'null' },
  { tag: 'text', value: '-1' },
  { tag: 'text', value: '9'.repeat(40) },
  { tag: 'text', value: '1e309' },
  { tag: 'text', value: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' },
]

const WORDS = ['default', 'demo', 'support', 'ops', 'zendesk', 'fuzz', 'a', 'x1', 'support-triage', 'crm', 'create_ticket']

export function hostileString(rng, exclude) {
  const pool = HOSTILE_STRINGS.filter((s) => !exclude.has(s.tag))
  const kind = rng.weighted({ listed: 6, huge: exclude.has('huge') ? 0 : 1, random: 3 })
  if (kind === 'huge') return { tag: 'huge', value: 'A'.repeat(rng.pick([5_000, 70_000, 300_000])) }
  if (kind === 'random') return { tag: 'unicode', value: randomUnicode(rng, rng.int(1, 40), exclude) }
  return rng.pick(pool)
}

function randomUnicode(rng, length, exclude) {
  let out = ''
  for (let i = 0; i < length; i++) {
    const range = rng.weighted({ ascii: 6, latin: 2, cjk: 1, astral: 1, control: exclude.has('nul') ? 0 : 1 })
    const code =
      range === 'ascii'
        ? rng.int(0x20, 0x7e)
        : range === 'latin'
          ? rng.int(0xa0, 0x24f)
          : range === 'cjk'
            ? rng.int(0x4e00, 0x9fff)
            : range === 'astral'
              ? rng.int(0x1f300, 0x1faff)
              : rng.int(0, 0x1f)
    out += String.fromCodePoint(code)
  }
  return out
}

/** A value of some other JSON type than `type` (or of any type). */
export function wrongType(rng, type) {
  const options = [
    ['string', () => rng.pick(['x', '', '0', 'true'])],
    ['number', () => rng.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1])],
    ['integer', () => rng.pick([3, -7])],
    ['boolean', () => rng.chance(0.5)],
    ['null', () => null],
    ['array', () => rng.pick([[], [1, 'a', null], [[[]]]])],
    ['object', () => rng.pick([{}, { a: 1 }, { __proto__: { polluted: true }, constructor: { prototype: {} } }])],
  ].filter(([t]) => t !== type && !(type === 'number' && t === 'integer'))
  return rng.pick(options)[1]()
}

/** `depth` levels of nesting (arrays or objects), the innermost holding `leaf`. */
export function deepNesting(rng, depth, leaf = 1) {
  const asArray = rng.chance(0.5)
  return (asArray ? '['.repeat(depth) : '{"a":'.repeat(depth)) + JSON.stringify(leaf) + (asArray ? ']'.repeat(depth) : '}'.repeat(depth))
}

export function randomUuid(rng) {
  const hex = () => rng.int(0, 15).toString(16)
  const part = (n) => Array.from({ length: n }, hex).join('')
  return `${part(8)}-${part(4)}-4${part(3)}-${rng.pick(['8', '9', 'a', 'b'])}${part(3)}-${part(12)}`
}

/** Resolves `{ $ref: '#/components/...' }` against `root`. */
export function deref(schema, root) {
  let s = schema
  for (let i = 0; s && s.$ref && i < 20; i++)
    s = s.$ref
      .slice(2)
      .split('/')
      .reduce((node, key) => node?.[decodeURIComponent(key)], root)
  return s ?? {}
}

/**
 * A value that tries to satisfy `schema` (valid-ish: patterns are not honoured, picks from known
 * values where it helps), with a chance per node to go wrong when `hostility` > 0. `known` supplies
 * real values by property name (ids, names harvested from the server).
 */
export function fromSchema(schema, ctx, depth = 0) {
  const { rng, root = {}, hostility = 0, exclude = new Set(), known } = ctx
  const s = deref(schema, root)
  if (hostility > 0 && rng.chance(hostility)) {
    const mutation = rng.weighted({ wrongType: 4, hostileString: 3, omitted: 1 })
    if (mutation === 'wrongType') return wrongType(rng, typeOf(s))
    if (mutation === 'hostileString') {
      const h = hostileString(rng, exclude)
      ctx.tags?.add(h.tag)
      return h.value
    }
    return undefined
  }
  if (s.const !== undefined) return s.const
  if (s.enum) return rng.pick(s.enum)
  const alternatives = s.anyOf ?? s.oneOf
  if (alternatives) return fromSchema(rng.pick(alternatives), ctx, depth + 1)
  if (s.allOf)
    return Object.assign({}, ...s.allOf.map((part) => fromSchema(part, ctx, depth + 1)).filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v)))
  const type = typeOf(s)
  switch (type) {
    case 'string':
      return stringFor(s, ctx)
    case 'integer':
    case 'number': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0)
      const max = Math.min(s.maximum ?? min + 100, min + 10_000)
      const n = rng.int(Math.ceil(min), Math.floor(max))
      return type === 'number' && rng.chance(0.3) ? n + 0.5 : n
    }
    case 'boolean':
      return rng.chance(0.5)
    case 'null':
      return null
    case 'array': {
      if (depth > 6) return []
      const n = rng.int(s.minItems ?? 0, Math.min(s.maxItems ?? 3, (s.minItems ?? 0) + 3))
      return Array.from({ length: n }, () => fromSchema(s.items ?? {}, ctx, depth + 1))
    }
    case 'object': {
      if (depth > 6) return {}
      const out = {}
      const required = new Set(s.required ?? [])
      for (const [key, prop] of Object.entries(s.properties ?? {})) {
        if (!required.has(key) && !rng.chance(0.5)) continue
        if (known?.[key] && rng.chance(0.7)) {
          out[key] = rng.pick(known[key])
          continue
        }
        const v = fromSchema(prop, ctx, depth + 1)
        if (v !== undefined) out[key] = v
      }
      if (s.additionalProperties && typeof s.additionalProperties === 'object' && rng.chance(0.3))
        out[rng.pick(WORDS)] = fromSchema(s.additionalProperties, ctx, depth + 1)
      if (hostility > 0 && rng.chance(hostility)) out[rng.pick(['unknownField', '__proto__', 'constructor', 'x'.repeat(300)])] = rng.pick([1, 'x', null, {}])
      return out
    }
    default:
      return rng.pick([1, 'x', null, true, {}, []])
  }
}

function typeOf(s) {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null') ?? 'null'
  if (s.type) return s.type
  if (s.properties) return 'object'
  if (s.items) return 'array'
  return undefined
}

function stringFor(s, { rng, known }) {
  const pattern = s.pattern ?? ''
  if (s.format === 'uuid') return known?.uuid?.length && rng.chance(0.5) ? rng.pick(known.uuid) : randomUuid(rng)
  if (s.format === 'date-time')
    return rng.pick([new Date(Date.now() - rng.int(0, 30) * 86_400_000).toISOString(), '2026-11-23T10:00:00+02:00', '0001-01-01T00:00:00Z'])
  if (s.format === 'email') return `fuzz-${rng.int(0, 1e6)}@toolroom.local`
  if (s.format === 'uri' || s.format === 'url') return rng.pick(['http://127.0.0.1:9/x', 'https://example.com/api', 'http://[::1]:9/'])
  let value
  if (pattern.includes('\\.') && pattern.startsWith('^[a-z]')) value = `${rng.pick(WORDS).replace(/-/g, '_')}.${rng.pick(WORDS).replace(/-/g, '_')}`
  else if (pattern.startsWith('^[a-z]')) value = rng.pick(WORDS.filter((w) => /^[a-z][a-z0-9-]*$/.test(w)))
  else value = rng.pick([...WORDS, `fuzz ${rng.int(0, 1e6)}`])
  if (s.minLength && value.length < s.minLength) value = value.padEnd(s.minLength, 'x')
  if (s.maxLength && value.length > s.maxLength) value = value.slice(0, s.maxLength)
  return value
}
