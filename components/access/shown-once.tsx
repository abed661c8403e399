'use client'
import { useState } from 'react'
import { Button } from '@/components/ui/button'

/** A secret the server returns once (a new token, a generated password): copy it now or lose it. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false)
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="shown-once">
      <p className="font-semibold">{label}</p>
      <p className="mt-0.5 text-xs">It is shown only this once: Toolroom keeps only a hash of it.</p>
      <div className="mt-2 flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 font-mono text-xs ring-1 ring-amber-200" data-testid="shown-once-value">
          {value}
        </code>
        <Button
          onClick={() =>
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  )
}
