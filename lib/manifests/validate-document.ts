// One raw document in, a typed document or the list of what is wrong with it out. Pure.
import type { FieldError } from '@/lib/errors/app-error'
import { z } from '@/lib/http/zod'
import { KIND_DEFINITIONS, type Kind, type Metadata, metadataSchema, resolveKind, TOOLROOM_API_VERSION } from './kinds'
import type { AgentSpec, UnitSpec } from './specs/fleet'
import type { ConnectorSpec } from './specs/connector'
import type { IdentityProviderSpec } from './specs/identity-provider'
import type { LanguageToolSpec } from './specs/language-tool'
import type { PolicySpec } from './specs/policy'
import type { SecretSpec } from './specs/secret'
import type { SideEffectPolicySpec } from './specs/side-effect-policy'
import type { ToolSpec } from './specs/tool'
import { secretRefProblem, secretRefsOf, SECRET_REF_RULE } from '@/lib/secrets/secret-ref'
import { STORABLE_TEXT_MESSAGE, STORABLE_TEXT_RULE, unstorableFields } from '@/lib/storage/storable-text'
import { authoredField, readInputDocument } from './input-forms'
import { fieldErrorsFromZod } from '@/lib/http/zod-issues'

export interface SpecByKind {
  Tool: ToolSpec
  LanguageTool: LanguageToolSpec
  Connector: ConnectorSpec
  Unit: UnitSpec
  Agent: AgentSpec
  Secret: SecretSpec
  SideEffectPolicy: SideEffectPolicySpec
  Policy: PolicySpec
  IdentityProvider: IdentityProviderSpec
}

export type ValidDocument<K extends Kind = Kind> = {
  [P in K]: { kind: P; apiVersion: string; metadata: Metadata; spec: SpecByKind[P] }
}[K]

// Fields the server sets (`status`, `id`, timestamps, …) are dropped before this by name
// (input-forms.ts): anything else beside these is an unknown field.
const TOP_LEVEL_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'spec'])

/** What names a document whose kind and metadata are valid, even if its spec is not: enough for the rules across documents that need only that. */
export interface DocumentIdentity {
  kind: Kind
  metadata: Metadata
}

export function validateDocument(authored: unknown, index?: number): { document?: ValidDocument; identity?: DocumentIdentity; errors: FieldError[] } {
  const input = readInputDocument(authored)
  const raw = input.document
  const at = (e: Omit<FieldError, 'document'>): FieldError => {
    const located = { ...e, field: authoredField(e.field, input) }
    return index === undefined ? located : { document: index, ...located }
  }
  if (input.serverJson && input.serverJson.errors.length > 0) return { errors: input.serverJson.errors.map(at) }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { errors: [at({ field: '(document)', rule: 'type', message: 'a document must be an object with apiVersion, kind, metadata and spec' })] }
  const doc = raw as Record<string, unknown>
  const errors: FieldError[] = []
  const kindName = typeof doc.kind === 'string' ? doc.kind : undefined
  const kind = kindName ? resolveKind(kindName) : null
  const name = typeof (doc.metadata as { name?: unknown } | undefined)?.name === 'string' ? (doc.metadata as { name: string }).name : undefined
  const withIdentity = (e: FieldError): FieldError => ({ ...e, ...(kindName ? { kind: kindName } : {}), ...(name ? { name } : {}) })

  // Names, descriptions and schemas are stored and shown as written: text PostgreSQL cannot hold is refused.
  for (const field of unstorableFields(doc)) errors.push(at({ field, rule: STORABLE_TEXT_RULE, message: STORABLE_TEXT_MESSAGE }))
  for (const key of Object.keys(doc)) if (!TOP_LEVEL_FIELDS.has(key)) errors.push(at({ field: key, rule: 'unknown-field', message: `unknown field "${key}"` }))

  if (doc.kind === undefined) errors.push(at({ field: 'kind', rule: 'required', message: 'is required' }))
  else if (!kind)
    errors.push(
      at({
        field: 'kind',
        rule: 'unknown-kind',
        message: `unknown kind ${JSON.stringify(doc.kind)}; expected one of: ${Object.keys(KIND_DEFINITIONS).join(', ')}, MCPServer`,
      }),
    )

  const apiVersion = doc.apiVersion
  if (apiVersion === undefined) errors.push(at({ field: 'apiVersion', rule: 'required', message: 'is required' }))
  else if (kind && !(KIND_DEFINITIONS[kind].apiVersions as readonly string[]).includes(apiVersion as string))
    errors.push(
      at({
        field: 'apiVersion',
        rule: 'api-version',
        message: `${kindName} is served as ${KIND_DEFINITIONS[kind].apiVersions.join(' or ')}, not ${JSON.stringify(apiVersion)}${ecosystemNote(apiVersion)}`,
      }),
    )

  if (!kind) return { errors: errors.map(withIdentity) }

  const metadata = metadataSchema(kind).safeParse(doc.metadata ?? undefined)
  if (!metadata.success) errors.push(...fieldErrorsFromZod(metadata.error, doc.metadata, ['metadata']).map(at))
  const spec = (KIND_DEFINITIONS[kind].spec as z.ZodType).safeParse(doc.spec ?? undefined)
  if (!spec.success) errors.push(...fieldErrorsFromZod(spec.error, doc.spec, ['spec']).map(at))

  if (kind === 'SideEffectPolicy' && metadata.success && spec.success) {
    const level = (spec.data as SideEffectPolicySpec).level
    if (metadata.data.name !== level) errors.push(at({ field: 'metadata.name', rule: 'mismatch', message: `must equal spec.level ("${level}")` }))
  }

  if (metadata.success && spec.success)
    for (const ref of secretRefsOf(kind, spec.data)) {
      const problem = secretRefProblem(ref.name, metadata.data.namespace)
      if (problem) errors.push(at({ field: ref.field, rule: SECRET_REF_RULE, message: problem }))
    }

  if (errors.length > 0 || !metadata.success || !spec.success)
    return { errors: errors.map(withIdentity), ...(metadata.success ? { identity: { kind, metadata: metadata.data } } : {}) }
  return { document: { kind, apiVersion: apiVersion as string, metadata: metadata.data, spec: spec.data } as ValidDocument, errors: [] }
}

/**
 * Which kinds an apiVersion of another ecosystem defines (its own names, such as MCPServer): each is
 * accepted for exactly the kinds its documents define, so a joch.dev Unit is refused, and the refusal
 * says what joch.dev does define instead of leaving the operator to guess.
 */
function ecosystemNote(apiVersion: unknown): string {
  if (typeof apiVersion !== 'string' || apiVersion === TOOLROOM_API_VERSION) return ''
  const kinds = Object.entries(KIND_DEFINITIONS)
    .filter(([, definition]) => (definition.apiVersions as readonly string[]).includes(apiVersion))
    .map(([kind]) => kind)
  return kinds.length > 0 ? ` (${apiVersion} defines ${listed(kinds)}; use ${TOOLROOM_API_VERSION} for the other kinds)` : ''
}

/** `A`, `A and B`, `A, B and C`. */
function listed(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}
