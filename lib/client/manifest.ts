// A resource as the manifest that re-applies it: what an operator copies into Git.
import { stringify } from 'yaml'
import type { Resource } from './api'

type Manifestable = Pick<Resource<unknown, unknown>, 'apiVersion' | 'kind' | 'metadata' | 'spec'>

export function manifestDocument(resource: Manifestable) {
  const { name, namespace, labels, annotations } = resource.metadata
  return {
    apiVersion: resource.apiVersion,
    kind: resource.kind,
    metadata: {
      name,
      namespace,
      ...(labels && Object.keys(labels).length ? { labels } : {}),
      ...(annotations && Object.keys(annotations).length ? { annotations } : {}),
    },
    spec: resource.spec,
  }
}

export function manifestYaml(resource: Manifestable): string {
  return stringify(manifestDocument(resource), { lineWidth: 0 })
}
