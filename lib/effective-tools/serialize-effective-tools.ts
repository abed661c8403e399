// An answer's JSON assembled from the serialized text of its entries, each entry serialized once per
// registry epoch and statistics version and reused by every answer that carries it: the agents of a
// unit share most entries (its connectors, its grants, the platform tools), so a change that reaches
// the whole fleet serializes each shared entry once, not once per agent. The bytes are those of
// `JSON.stringify` of the answer built from objects (a property test holds them equal).
// Design: docs/design/effective-tools.md#serializing-answers.
import 'server-only'
import { createHash } from 'node:crypto'
import type { ToolStatsSnapshot } from '@/lib/stats/tool-stats-cache'
import { attachStats } from './attach-stats'
import { entryOf, type Verdict } from './resolve-effective-tools'
import type { CatalogTool, ResolverInput } from './types'

/** A value already serialized, as the pieces of its JSON text. */
export class SerializedJson {
  constructor(readonly parts: Buffer[]) {}
}

/**
 * What an entry is made into: its JSON text (`,` first, for answers), or the digest of that text
 * (for fingerprints: a set's fingerprint hashes its entries' digests, 43 bytes each, not their text).
 */
export type EntryForm = 'text' | 'digest'

/**
 * The serialized entries kept for one set of inputs of the entry text: the catalog (whose tools are
 * the keys, kept by the registry reader for one epoch), the SideEffectPolicies and the statistics.
 */
export interface EntryPieces {
  readonly form: EntryForm
  readonly policies: ResolverInput['policies']
  readonly stats: ToolStatsSnapshot
  readonly byTool: Map<CatalogTool, ToolPieces>
  /** What the kept pieces hold, their bookkeeping included, against `budget`. */
  bytes: number
  readonly budget: number
}

/**
 * One tool's entries: most are plainly enabled (no reason, no policies) and differ only in where they
 * come from, looked up without building a key; the rest by a key that spells out their decision.
 */
export interface ToolPieces {
  /** By provenance, then by the unit inherited from (null: the subject's own). */
  plain: Map<string, Map<string | null, Buffer>>
  other: Map<string, Buffer>
}

export function entryPieces(policies: ResolverInput['policies'], stats: ToolStatsSnapshot, budget: number, form: EntryForm = 'text'): EntryPieces {
  return { form, policies, stats, byTool: new Map(), bytes: 0, budget }
}

/** A kept piece's cost beyond its bytes: the Buffer object, its key and its map slots, about. */
const PIECE_OVERHEAD_BYTES = 200

const OPEN_ARRAY = Buffer.from('[')
const CLOSE_ARRAY = Buffer.from(']')
const OPEN_OBJECT = Buffer.from('{')
const CLOSE_OBJECT = Buffer.from('}')
const COMMA = Buffer.from(',')
const COLON = Buffer.from(':')

/** A verdict's entry in everything it does not take from its tool, the policies or the statistics, unambiguously. */
function variantKey(v: Verdict): string {
  const { tier, provenance, inheritedFromUnit } = v.candidate
  return `${tier}|${field(provenance)}${field(inheritedFromUnit)}${v.state}|${field(v.reason)}${field(v.shadowedBy)}${v.policies === undefined ? '-' : field(JSON.stringify(v.policies))}`
}
const field = (value: string | null | undefined) => (value === null || value === undefined ? '-' : `${value.length}:${value}`)

const isPlain = (v: Verdict) => v.state === 'enabled' && v.reason === null && v.shadowedBy === undefined && v.policies === undefined

/**
 * The JSON of each verdict's entry (statistics attached, and its policies when set), as `[…]`.
 * `pieces` null: nothing is kept (no registry epoch to key it by). Image tools are the subject's
 * own (their catalog objects are made per read): serialized, never kept. Each piece is the entry's
 * text after a comma, so an array of n entries is n + 2 parts, not 2n + 1.
 */
export function serializeEntries(
  verdicts: Verdict[],
  input: Pick<ResolverInput, 'policies'>,
  stats: ToolStatsSnapshot,
  pieces: EntryPieces | null,
): SerializedJson {
  return entriesAs('text', verdicts, input, stats, pieces)
}

/**
 * The entries as serializeEntries would write them, each replaced by the digest of its text (without
 * the comma): `[`, a 43-byte digest per entry, `]`. Equal for equal entries in the same order, on any
 * process and whichever pieces were kept; a change of any byte of any entry changes its digest. The
 * digests of kept entries are worked out once per epoch, the subject's own (image tools) per call.
 */
export function digestEntries(
  verdicts: Verdict[],
  input: Pick<ResolverInput, 'policies'>,
  stats: ToolStatsSnapshot,
  pieces: EntryPieces | null,
): SerializedJson {
  return entriesAs('digest', verdicts, input, stats, pieces)
}

/** How each form writes an entry that is not kept (into a run of them), a run, and a kept piece. */
const FORMS: Record<EntryForm, { unkept(json: string): string; run(run: string, first: boolean): Buffer; kept(piece: Buffer, first: boolean): Buffer }> = {
  // Text: each entry after a comma, the array's first without it.
  text: {
    unkept: (json) => ',' + json,
    run: (run, first) => Buffer.from(first ? run.slice(1) : run),
    kept: (piece, first) => (first ? piece.subarray(1) : piece),
  },
  // Digests: fixed-width base64url, no separators.
  digest: { unkept: (json) => digestText(json), run: (run) => Buffer.from(run, 'latin1'), kept: (piece) => piece },
}

/** The entries in `form`: serializeEntries' text or digestEntries' digests, by one loop. */
export function entriesAs(
  form: EntryForm,
  verdicts: Verdict[],
  input: Pick<ResolverInput, 'policies'>,
  stats: ToolStatsSnapshot,
  pieces: EntryPieces | null,
): SerializedJson {
  const write = FORMS[form]
  const parts: Buffer[] = [OPEN_ARRAY]
  const usable = usablePieces(pieces, form, input, stats)
  // Entries not kept come in runs (a tier at a time): each run becomes one Buffer, not one per entry
  // (a small Buffer of its own per image tool, 30 an agent, was the largest cost of a fleet's fingerprints).
  let run = ''
  for (const v of verdicts) {
    if (usable === null || v.candidate.tier === 'image') {
      run += write.unkept(entryJson(v, input, stats))
      continue
    }
    if (run) {
      parts.push(write.run(run, parts.length === 1))
      run = ''
    }
    parts.push(write.kept(keptText(v, input, stats, usable), parts.length === 1))
  }
  if (run) parts.push(write.run(run, parts.length === 1))
  parts.push(CLOSE_ARRAY)
  return new SerializedJson(parts)
}

const usablePieces = (pieces: EntryPieces | null, form: EntryForm, input: Pick<ResolverInput, 'policies'>, stats: ToolStatsSnapshot) =>
  pieces !== null && pieces.form === form && pieces.policies === input.policies && pieces.stats === stats ? pieces : null

/** The SHA-256 digest of an entry's text as 43 characters of base64url (none of them a bracket or a comma). */
const digestText = (json: string) => createHash('sha256').update(json).digest('base64url')

/** A digest to keep, in memory of its own like a kept piece. */
function digestOf(json: string): Buffer {
  const digest = digestText(json)
  const bytes = Buffer.allocUnsafeSlow(digest.length)
  bytes.write(digest, 'latin1')
  return bytes
}

function keptText(v: Verdict, input: Pick<ResolverInput, 'policies'>, stats: ToolStatsSnapshot, pieces: EntryPieces): Buffer {
  const tool = v.candidate.tool
  let mine = pieces.byTool.get(tool)
  if (isPlain(v)) {
    const byUnit = mine?.plain.get(v.candidate.provenance)
    const known = byUnit?.get(v.candidate.inheritedFromUnit)
    if (known) return known
    const text = pieceOf(v, input, stats, pieces.form)
    if (!spend(pieces, text.byteLength + v.candidate.provenance.length)) return text
    if (!mine) pieces.byTool.set(tool, (mine = { plain: new Map(), other: new Map() }))
    if (byUnit) byUnit.set(v.candidate.inheritedFromUnit, text)
    else mine.plain.set(v.candidate.provenance, new Map([[v.candidate.inheritedFromUnit, text]]))
    return text
  }
  const key = variantKey(v)
  const known = mine?.other.get(key)
  if (known) return known
  const text = pieceOf(v, input, stats, pieces.form)
  if (!spend(pieces, text.byteLength + key.length)) return text
  if (!mine) pieces.byTool.set(tool, (mine = { plain: new Map(), other: new Map() }))
  mine.other.set(key, text)
  return text
}

/** Whether a piece of `bytes` still fits the budget (and if so, counts it). */
function spend(pieces: EntryPieces, bytes: number): boolean {
  const cost = bytes + PIECE_OVERHEAD_BYTES
  if (pieces.bytes + cost > pieces.budget) return false
  pieces.bytes += cost
  return true
}

function entryJson(v: Verdict, input: Pick<ResolverInput, 'policies'>, stats: ToolStatsSnapshot): string {
  const entry = entryOf(v, input)
  attachStats(entry, stats)
  if (v.policies !== undefined) entry.policies = v.policies
  return JSON.stringify(entry)
}

const pieceOf = (v: Verdict, input: Pick<ResolverInput, 'policies'>, stats: ToolStatsSnapshot, form: EntryForm) =>
  form === 'text' ? commaAndText(v, input, stats) : digestOf(entryJson(v, input, stats))

/** `,` and the entry's JSON, in memory of its own: a kept piece must not hold a slab of Node's shared Buffer pool alive. */
function commaAndText(v: Verdict, input: Pick<ResolverInput, 'policies'>, stats: ToolStatsSnapshot): Buffer {
  const json = ',' + entryJson(v, input, stats)
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json))
  bytes.write(json)
  return bytes
}

/**
 * `JSON.stringify(value)` of a plain object whose members may be SerializedJson: the members are
 * serialized one by one as JSON.stringify would (in key order, those it leaves out left out), the
 * serialized ones spliced in as they are.
 */
export function serializeObject(value: Record<string, unknown>): Buffer {
  return Buffer.concat(serializeObjectParts(value))
}

/** serializeObject's text as its parts, the kept pieces among them as they are (nothing copied). */
export function serializeObjectParts(value: Record<string, unknown>): Buffer[] {
  const parts: Buffer[] = [OPEN_OBJECT]
  let first = true
  for (const key of Object.keys(value)) {
    const member = value[key]
    let text: Buffer[]
    if (member instanceof SerializedJson) text = member.parts
    else {
      const json = JSON.stringify(member) as string | undefined
      if (json === undefined) continue
      text = [Buffer.from(json)]
    }
    if (!first) parts.push(COMMA)
    first = false
    parts.push(Buffer.from(JSON.stringify(key)), COLON, ...text)
  }
  parts.push(CLOSE_OBJECT)
  return parts
}
