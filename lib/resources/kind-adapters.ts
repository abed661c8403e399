// How each kind maps between a validated document and its table row: which spec fields are promoted
// to columns, what the stored spec is, and what status Toolroom reports. The one place that knows.
import 'server-only'
import { prisma } from '@/lib/db'
import type { Kind } from '@/lib/manifests/kinds'
import { agentEndpoint, imageDigestOf } from '@/lib/manifests/specs/fleet'
import { languageToolEndpoint } from '@/lib/manifests/specs/language-tool'
import { keptSecretKeys, secretValues } from '@/lib/manifests/specs/secret'
import type { ValidDocument } from '@/lib/manifests/validate-document'
import { documentChanges, type FieldChange, formatPath } from '@/lib/manifests/document-changes'
import { openSecretValues, sealSecretValues } from '@/lib/secrets/encryption'

/** Stands for a Secret value in Apply's changes. */
export const SECRET_MARK = '[secret]'

type Db = typeof prisma
export type Row = Record<string, unknown> & {
  id: string
  apiVersion: string
  namespace: string
  name: string
  labels: unknown
  annotations: unknown
  generation: number
  spec: unknown
  createdAt: Date
  updatedAt: Date
}

/** The subset of a Prisma model delegate the generic store uses. */
export interface Delegate {
  findMany(args: object): Promise<Row[]>
  findUnique(args: object): Promise<Row | null>
  findFirst(args: object): Promise<Row | null>
  create(args: object): Promise<Row>
  update(args: object): Promise<Row>
  delete(args: object): Promise<Row>
  deleteMany(args: object): Promise<{ count: number }>
  count(args?: object): Promise<number>
}

export interface KindAdapter {
  kind: Kind
  delegate(db: Db | Parameters<Parameters<Db['$transaction']>[0]>[0]): Delegate
  /** Columns written from a document: the stored spec and the promoted fields. */
  columns(doc: ValidDocument): Record<string, unknown>
  /** Whether writing `doc` would change nothing about `row`. */
  unchanged(row: Row, doc: ValidDocument): boolean
  /** What writing `doc` would change about `row`, field by field (Apply's `changes`). */
  changes(row: Row, doc: ValidDocument): FieldChange[]
  /** The spec as the API shows it (secrets never show values). */
  specOut(row: Row): unknown
  status(row: Row): Record<string, unknown> | undefined
  /** Columns searched by the `q` filter. */
  searchColumns: string[]
}

/** Equality of JSON values regardless of object key order (JSONB does not keep it). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b)
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

const storedEnvelope = (row: Row, spec: unknown) => ({ apiVersion: row.apiVersion, metadata: { labels: row.labels, annotations: row.annotations }, spec })
const documentEnvelope = (doc: ValidDocument, spec: unknown) => ({ apiVersion: doc.apiVersion, metadata: doc.metadata, spec })

const sameEnvelope = (row: Row, doc: ValidDocument) =>
  row.apiVersion === doc.apiVersion && sameJson(row.labels, doc.metadata.labels) && sameJson(row.annotations, doc.metadata.annotations)

function plain(kind: Kind, model: keyof Db & string, extra: Partial<KindAdapter> = {}): KindAdapter {
  return {
    kind,
    delegate: (db) => (db as unknown as Record<string, Delegate>)[model],
    columns: (doc) => ({ spec: doc.spec }),
    unchanged: (row, doc) => sameEnvelope(row, doc) && sameJson(row.spec, doc.spec),
    changes: (row, doc) => documentChanges(storedEnvelope(row, row.spec), documentEnvelope(doc, doc.spec)),
    specOut: (row) => row.spec,
    status: () => undefined,
    searchColumns: ['name'],
    ...extra,
  }
}

const imageToolsStatus = (row: Row) => ({
  imageTools: {
    digest: row.imageDigest ?? null,
    source: row.imageToolsSource ?? null,
    updatedAt: row.imageToolsUpdatedAt ?? null,
    count: Array.isArray(row.imageTools) ? row.imageTools.length : 0,
  },
})

const isoOrNull = (value: unknown) => (value instanceof Date ? value.toISOString() : null)

export const KIND_ADAPTERS: Record<Kind, KindAdapter> = {
  Tool: plain('Tool', 'tool', {
    columns: (doc) => {
      const spec = (doc as ValidDocument<'Tool'>).spec
      return { spec, type: spec.type, level: spec.sideEffects?.level ?? null, description: spec.description }
    },
    status: (row) => ({ phase: row.phase, conditions: row.conditions ?? [], totalCalls7d: row.totalCalls7d, failureRate7d: row.failureRate7d }),
    searchColumns: ['name', 'description'],
  }),
  LanguageTool: plain('LanguageTool', 'languageTool', {
    status: (row) => ({
      phase: row.phase,
      endpoint: languageToolEndpoint(row.name, row.namespace, row.spec as never),
      health: row.health,
      lastIntrospectedAt: row.lastIntrospectedAt,
      lastError: row.lastError,
      toolSchemas: row.toolSchemas,
      detectedTransport: row.detectedTransport ?? null,
      detectedUrl: row.detectedUrl ?? null,
      compliance: row.compliance ?? null,
      serverInfo: row.serverInfo ?? null,
    }),
  }),
  Connector: plain('Connector', 'connector'),
  Policy: plain('Policy', 'policy'),
  Unit: plain('Unit', 'unit', {
    columns: (doc) => {
      const spec = (doc as ValidDocument<'Unit'>).spec
      return { spec, parent: spec.parent ?? null, connectors: spec.connectors ?? [] }
    },
    status: (row) => ({ ...imageToolsStatus(row), imageDigest: imageDigestOf((row.spec as { image?: string }).image) }),
  }),
  Agent: plain('Agent', 'agent', {
    columns: (doc) => {
      const spec = (doc as ValidDocument<'Agent'>).spec
      return { spec, unit: spec.unit ?? null, connectors: spec.connectors ?? [] }
    },
    status: (row) => ({
      endpoint: agentEndpoint(row.name, row.namespace, row.spec as never),
      imageDigest: imageDigestOf((row.spec as { image?: string }).image),
      ...imageToolsStatus(row),
    }),
  }),
  Secret: plain('Secret', 'secret', {
    columns: (doc) => {
      const spec = (doc as ValidDocument<'Secret'>).spec
      // Keys alone keep the sealed values as they are (the apply rules checked they are the stored keys).
      const kept = keptSecretKeys(spec)
      if (kept) return { spec: { type: spec.type, keys: kept } }
      const values = secretValues(spec)
      return { spec: { type: spec.type, keys: Object.keys(values).sort() }, ...sealSecretValues(values) }
    },
    unchanged: (row, doc) => {
      const spec = (doc as ValidDocument<'Secret'>).spec
      if (!sameEnvelope(row, doc) || (row.spec as { type: string }).type !== spec.type) return false
      const kept = keptSecretKeys(spec)
      if (kept) return sameJson(kept, [...(row.spec as { keys: string[] }).keys].sort())
      try {
        return sameJson(openSecretValues(row.ciphertext as Uint8Array, row.keyId as string), secretValues(spec))
      } catch {
        return false // sealed under another key: rewriting re-seals it under the current one
      }
    },
    // Values never leave the server: a changed, added or removed value shows as SECRET_MARK.
    changes: (row, doc) => {
      const spec = (doc as ValidDocument<'Secret'>).spec
      const changes = documentChanges(storedEnvelope(row, { type: (row.spec as { type: string }).type }), documentEnvelope(doc, { type: spec.type }))
      if (keptSecretKeys(spec)) return changes
      let stored: Record<string, string> | null
      try {
        stored = openSecretValues(row.ciphertext as Uint8Array, row.keyId as string)
      } catch {
        stored = null
      }
      const storedKeys = stored ? Object.keys(stored) : (row.spec as { keys: string[] }).keys
      const values = secretValues(spec)
      for (const key of [...new Set([...storedKeys, ...Object.keys(values)])].sort()) {
        const path = formatPath(['spec', 'data', key])
        const had = storedKeys.includes(key)
        const has = Object.prototype.hasOwnProperty.call(values, key)
        if (had && !has) changes.push({ path, before: SECRET_MARK })
        else if (!had && has) changes.push({ path, after: SECRET_MARK })
        else if (!stored || stored[key] !== values[key]) changes.push({ path, before: SECRET_MARK, after: SECRET_MARK })
      }
      return changes
    },
  }),
  SideEffectPolicy: plain('SideEffectPolicy', 'sideEffectPolicy', {
    columns: (doc) => {
      const spec = (doc as ValidDocument<'SideEffectPolicy'>).spec
      return { spec, level: spec.level }
    },
  }),
  IdentityProvider: plain('IdentityProvider', 'identityProvider', {
    columns: (doc) => {
      const spec = (doc as ValidDocument<'IdentityProvider'>).spec
      return { spec, issuer: spec.issuer }
    },
    status: (row) => ({
      phase: row.phase,
      conditions: row.conditions ?? [],
      keys: {
        fetchedAt: isoOrNull(row.jwksFetchedAt),
        count: row.jwksKeyCount ?? null,
        lastError: row.lastError ?? null,
        lastErrorAt: isoOrNull(row.lastErrorAt),
      },
      refusals: row.refusals ?? {},
    }),
  }),
}

/** Columns never selected for API answers: secret material. */
export const OMIT_COLUMNS: Partial<Record<Kind, Record<string, true>>> = { Secret: { ciphertext: true, keyId: true } }
