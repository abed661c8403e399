'use client'
import { useState } from 'react'
import { useCan } from '@/components/access/caller-context'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import type { EffectiveTool } from '@/lib/effective-tools/types'
import type { ImageToolsStatus } from '@/lib/client/api'
import { dateTime, timeAgo } from '@/lib/client/format'
import { EffectiveToolsTable } from './effective-tools-table'
import { ImageToolsUpload } from './image-tools-upload'

const SOURCE_LABEL: Record<string, string> = { upload: 'uploaded manifest', introspection: 'introspected from /a2a/tools' }

/**
 * The tools the subject's own image declares. Read-only by design (docs/design/effective-tools.md#inheritance): operators cannot toggle or
 * edit them here; only a new image (or a new manifest for the same digest) changes the surface.
 */
export function ImageToolsSection({
  plural,
  id,
  namespace,
  tools,
  imageTools,
  pinnedDigest,
  unitNamespace,
}: {
  plural: 'agents' | 'units'
  id: string
  namespace?: string
  tools: EffectiveTool[]
  imageTools: ImageToolsStatus | undefined
  pinnedDigest: string | null
  unitNamespace: string
}) {
  const [uploading, setUploading] = useState(false)
  // Uploading changes the subject's tool surface: operators and up (PUT …/image-tools needs write).
  const canUpload = useCan('write')
  const [stored, setStored] = useState<number | null>(null)
  const stale = imageTools?.digest && pinnedDigest && imageTools.digest !== pinnedDigest
  return (
    <Card
      id="image-tools"
      title={
        <span className="flex items-center gap-2">
          Image <Badge tone="gray">read-only</Badge> <span className="font-normal text-slate-500">{tools.length}</span>
        </span>
      }
      description={
        imageTools?.updatedAt ? (
          <>
            <span className="font-mono" title={imageTools.digest ?? undefined}>
              {imageTools.digest ?? 'no digest'}
            </span>
            {' · '}
            {SOURCE_LABEL[imageTools.source ?? ''] ?? imageTools.source ?? 'unknown source'}{' '}
            <span title={dateTime(imageTools.updatedAt)}>{timeAgo(imageTools.updatedAt)}</span>
          </>
        ) : (
          'No tools cached for this image yet: introspection has not run and no manifest was uploaded.'
        )
      }
      actions={
        canUpload &&
        !uploading && (
          <Button
            onClick={() => {
              setStored(null)
              setUploading(true)
            }}
            className="h-7 text-xs"
          >
            Upload tools manifest
          </Button>
        )
      }
      bodyClassName=""
    >
      {stale && (
        <p className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-xs text-amber-900">
          The cached tools came from <code className="font-mono">{imageTools?.digest}</code>, but the image is now pinned to{' '}
          <code className="font-mono">{pinnedDigest}</code>; they will be replaced at the next introspection.
        </p>
      )}
      {uploading && (
        <div className="p-3">
          <ImageToolsUpload
            plural={plural}
            id={id}
            namespace={namespace}
            pinnedDigest={pinnedDigest}
            onDone={(count) => {
              setUploading(false)
              setStored(count ?? null)
            }}
          />
        </div>
      )}
      {stored !== null && (
        <p role="status" className="border-b border-emerald-200 bg-emerald-50 px-4 py-2 text-xs text-emerald-900">
          Stored {stored} tool{stored === 1 ? '' : 's'} from the uploaded manifest.
        </p>
      )}
      {tools.length > 0 ? (
        <EffectiveToolsTable tools={tools} unitNamespace={unitNamespace} />
      ) : (
        <p className="px-4 py-4 text-sm text-slate-500">
          {imageTools?.count ? 'Every image tool is excluded; see Excluded below.' : 'The image declares no tools.'}
        </p>
      )}
    </Card>
  )
}
