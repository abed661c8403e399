// REST create and replace of one resource: the body is a manifest of the route's kind (apiVersion and
// kind defaulted), written through Apply's validation and audit. A replace keeps the resource's
// identity: metadata.name and metadata.namespace cannot change (a rename is a new resource).
import { AppError } from '@/lib/errors/app-error'
import { getResource, getRow } from '@/lib/resources/resource-store'
import type { ResourceView } from '@/lib/resources/resource-view'
import { type ApplyOptions, applyDocuments } from './apply-documents'
import { KIND_DEFINITIONS, type Kind, TOOLROOM_API_VERSION } from '@/lib/manifests/kinds'

type WriteOptions = Pick<ApplyOptions, 'audit' | 'caller'>

export async function createResource(kind: Kind, body: Record<string, unknown>, options: WriteOptions): Promise<ResourceView> {
  const { results } = await applyDocuments([documentFrom(kind, body)], { ...options, expect: 'absent' })
  return getResource(kind, results[0].id!)
}

export async function replaceResource(
  kind: Kind,
  idOrName: string,
  namespace: string | undefined,
  body: Record<string, unknown>,
  options: WriteOptions,
): Promise<ResourceView> {
  const existing = await getRow(kind, idOrName, namespace)
  const doc = documentFrom(kind, body)
  const metadata = (doc.metadata ?? {}) as { name?: unknown; namespace?: unknown }
  if (metadata.name !== existing.name || (metadata.namespace ?? 'default') !== existing.namespace)
    throw new AppError('VALIDATION_FAILED', 'metadata.name and metadata.namespace cannot change; create a new resource instead', [
      { field: 'metadata.name', rule: 'immutable', message: `must stay "${existing.namespace}/${existing.name}"` },
    ])
  await applyDocuments([doc], { ...options, expect: 'present' })
  return getResource(kind, existing.id)
}

/** The document to write for a REST create or replace, with apiVersion and kind defaulted. */
function documentFrom(kind: Kind, body: Record<string, unknown>): Record<string, unknown> {
  const doc = { apiVersion: KIND_DEFINITIONS[kind].apiVersions[0] ?? TOOLROOM_API_VERSION, kind, ...body }
  if (doc.kind !== kind)
    throw new AppError('VALIDATION_FAILED', `this route takes ${kind} documents, not ${String(doc.kind)}`, [
      { field: 'kind', rule: 'kind', message: `must be ${kind}` },
    ])
  return doc
}
