'use client'
import { useState } from 'react'

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    // The Clipboard API needs a secure context; the portal is often served over plain http inside a
    // cluster, so fall back to the selection-based command.
    const area = document.createElement('textarea')
    area.value = text
    area.style.position = 'fixed'
    area.style.opacity = '0'
    document.body.appendChild(area)
    area.select()
    const ok = document.execCommand('copy')
    area.remove()
    return ok
  }
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  return (
    <button
      type="button"
      onClick={async () => {
        setState((await copyText(text)) ? 'copied' : 'failed')
        setTimeout(() => setState('idle'), 1500)
      }}
      className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-100"
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  )
}

/**
 * Code on a dark panel that scrolls both ways when it must; the scrolling area takes keyboard focus
 * (Tab, then the arrow keys), so readers without a mouse reach what is beyond the edge.
 */
export function CodeBlock({ code, title, maxHeight = '28rem', copy = true }: { code: string; title?: string; maxHeight?: string; copy?: boolean }) {
  return (
    <div className="overflow-hidden rounded-md border border-slate-200 bg-slate-950" data-surface="dark">
      {(title || copy) && (
        <div className="flex items-center justify-between gap-2 border-b border-slate-800 bg-slate-900 px-3 py-1.5">
          <span className="min-w-0 font-mono text-xs text-slate-300">{title}</span>
          {copy && <CopyButton text={code} />}
        </div>
      )}
      <pre
        tabIndex={0}
        aria-label={title ? `${title} (scrollable)` : 'Code (scrollable)'}
        className="overflow-auto p-3 font-mono text-xs leading-relaxed text-slate-100"
        style={{ maxHeight }}
      >
        <code>{code}</code>
      </pre>
    </div>
  )
}
