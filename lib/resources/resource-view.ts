// The shape every resource has in API answers: the manifest envelope plus Toolroom's status.
import type { z } from '@/lib/http/zod'
import type { resourceMetadataSchema } from './resource-metadata'
import type { Kind } from '@/lib/manifests/kinds'
import { KIND_ADAPTERS, type Row } from './kind-adapters'

export interface ResourceView {
  id: string
  apiVersion: string
  kind: Kind
  metadata: z.output<typeof resourceMetadataSchema>
  spec: unknown
  status?: Record<string, unknown>
}

export function toResourceView(kind: Kind, row: Row): ResourceView {
  const adapter = KIND_ADAPTERS[kind]
  const status = adapter.status(row)
  return {
    id: row.id,
    apiVersion: row.apiVersion,
    kind,
    metadata: {
      name: row.name,
      namespace: row.namespace,
      labels: row.labels as Record<string, string>,
      annotations: row.annotations as Record<string, string>,
      generation: row.generation,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    },
    spec: adapter.specOut(row),
    ...(status ? { status } : {}),
  }
}
