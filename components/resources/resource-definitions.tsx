// Label/value pairs the resource pages list alike in their DefinitionLists, so a namespace, labels,
// a change and an image read the same on every kind's page.
import { Code } from '@/components/ui/code'
import type { Definition } from '@/components/ui/definition-list'
import type { Resource } from '@/lib/client/api'
import { dateTime, digestOfImage, shortDigest } from '@/lib/client/format'
import { LabelBadges } from './status-badges'

type Metadata = Resource['metadata']

export const namespaceDefinition = (metadata: Metadata): Definition => ['Namespace', <Code key="ns">{metadata.namespace}</Code>]

/** Left out when the resource has none. */
export const labelsDefinition = (metadata: Metadata): Definition => [
  'Labels',
  Object.keys(metadata.labels).length ? <LabelBadges key="l" labels={metadata.labels} /> : null,
]

/** When it last changed, and into which generation. */
export const updatedDefinition = (metadata: Metadata): Definition => ['Updated', `${dateTime(metadata.updatedAt)} (generation ${metadata.generation})`]

/** An agent's or unit's own image: the reference without its digest, then the digest it is pinned to (left out without an image). */
export function imageDefinitions(image: string | undefined): Definition[] {
  const pinned = digestOfImage(image)
  return [
    [
      'Image',
      image ? (
        <span key="i" className="break-all font-mono text-xs" title={image}>
          {image.split('@')[0]}
        </span>
      ) : (
        <span key="i" className="text-slate-400">
          none
        </span>
      ),
    ],
    [
      'Image digest',
      image ? (
        <span key="d" className="font-mono text-xs" title={pinned ?? undefined}>
          {pinned ? shortDigest(pinned, 16) : 'not pinned'}
        </span>
      ) : null,
    ],
  ]
}
