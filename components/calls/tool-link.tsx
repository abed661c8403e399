'use client'
// A call's tool id, linked to the page of the tool it went to (its resolved tool: a Tool, or the
// connector, server or agent that offers it). Platform tools and tools the caller did not have have
// no page, so their ids are plain text and do not look like links.
import { IntentLink } from '@/components/ui/intent-link'
import { resolvedToolHref } from '@/lib/client/links'

/** A dotted or slashed name that wraps after its separators, never inside a word: `support/triage-bot`, `zendesk.create_ticket`. */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[./])/)
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </span>
      ))}
    </>
  )
}

export function ToolLink({ toolId, toolKey, className = '' }: { toolId: string; toolKey: string | null; className?: string }) {
  const href = resolvedToolHref(toolKey)
  if (!href)
    return (
      <code className={`font-mono text-xs text-slate-900 [overflow-wrap:anywhere] ${className}`}>
        <Breakable text={toolId} />
      </code>
    )
  return (
    <IntentLink
      href={href}
      className={`font-mono text-xs text-sky-800 [overflow-wrap:anywhere] hover:underline ${className}`}
      title={toolKey ?? undefined}
      onClick={(e) => e.stopPropagation()}
    >
      <Breakable text={toolId} />
    </IntentLink>
  )
}
