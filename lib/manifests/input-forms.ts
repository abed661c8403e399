// What a document may carry besides what it asks for, so that what GET returns (or kubectl emits)
// applies again unchanged: the fields the server sets are dropped by name, here and nowhere else;
// any other field is still refused as unknown (validate-document.ts). And a Kubernetes Secret
// (`apiVersion: v1`, top-level `type`, `stringData`, `data`) is read as Toolroom's own form, and an MCP
// Registry server.json as the LanguageTool of its remote (server-json-form.ts). Pure.
import type { FieldError } from '@/lib/errors/app-error'
import { isServerJson, languageToolFromServerJson, serverJsonField } from './server-json-form'
import { TOOLROOM_API_VERSION } from './kinds'

/**
 * Set by the server, never by a manifest: ignored on input. Toolroom's own answers carry the top-level
 * ones and the first three of `metadata`; Kubernetes' carry the rest of `metadata`.
 */
export const SERVER_SET_FIELDS = {
  topLevel: ['id', 'status', 'effectiveTools', 'unresolved'],
  metadata: ['generation', 'createdAt', 'updatedAt', 'uid', 'resourceVersion', 'creationTimestamp', 'managedFields'],
} as const

/** The fields of a Kubernetes Secret that Toolroom's Secret spec holds, and how its `type` reads here. */
const KUBERNETES_SECRET_FIELDS = ['type', 'stringData', 'data'] as const
const KUBERNETES_SECRET_TYPES: Record<string, string> = { Opaque: 'opaque' }

export interface InputDocument {
  /** The document as validation sees it. */
  document: unknown
  /** Written as a Kubernetes Secret: its `type`, `stringData` and `data` are top-level fields, not `spec.*`. */
  kubernetesSecret: boolean
  /** Written as an MCP Registry server.json: why it cannot be a LanguageTool, and where its fields came from. */
  serverJson?: { errors: Omit<FieldError, 'document'>[]; origins: Array<[string, string]> }
}

export function readInputDocument(raw: unknown): InputDocument {
  if (!isObject(raw)) return { document: raw, kubernetesSecret: false }
  if (isServerJson(raw)) {
    const { document, errors, origins } = languageToolFromServerJson(raw)
    return { document: document ?? raw, kubernetesSecret: false, serverJson: { errors, origins } }
  }
  const document: Record<string, unknown> = { ...raw }
  for (const field of SERVER_SET_FIELDS.topLevel) delete document[field]
  if (isObject(document.metadata)) {
    const metadata = { ...document.metadata }
    for (const field of SERVER_SET_FIELDS.metadata) delete metadata[field]
    document.metadata = metadata
  }
  if (document.apiVersion !== 'v1' || document.kind !== 'Secret' || 'spec' in document) return { document, kubernetesSecret: false }

  const spec: Record<string, unknown> = {}
  for (const field of KUBERNETES_SECRET_FIELDS) {
    if (!(field in document)) continue
    const value = document[field]
    spec[field] = field === 'type' && typeof value === 'string' ? (KUBERNETES_SECRET_TYPES[value] ?? value) : value
    delete document[field]
  }
  return { document: { ...document, apiVersion: TOOLROOM_API_VERSION, spec }, kubernetesSecret: true }
}

/** A field path of the converted document as the author wrote it (`spec.stringData.x` → `stringData.x`). */
export function authoredField(field: string, input: InputDocument): string {
  if (input.serverJson) return serverJsonField(field, input.serverJson.origins)
  if (!input.kubernetesSecret) return field
  return field.startsWith('spec.') ? field.slice('spec.'.length) : field === 'spec' ? '(document)' : field
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
