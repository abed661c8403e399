// The before/after of a resource in the audit log: its manifest (apiVersion, kind, metadata, spec),
// not table columns. A Secret's stored spec holds its type and key names only, never values.
import type { Kind } from '@/lib/manifests/kinds'

export interface AuditDocument {
  apiVersion: string
  kind: Kind
  metadata: { name: string; namespace: string; labels: unknown; annotations: unknown }
  spec: unknown
}

export function auditDocument(
  kind: Kind,
  row: { apiVersion: string; namespace: string; name: string; labels: unknown; annotations: unknown; spec: unknown },
): AuditDocument {
  return {
    apiVersion: row.apiVersion,
    kind,
    metadata: { name: row.name, namespace: row.namespace, labels: row.labels ?? {}, annotations: row.annotations ?? {} },
    spec: row.spec,
  }
}
