'use client'
import { useMayChangeKind } from '@/components/access/caller-context'
import { CopyButton } from '@/components/ui/code-block'
import { IntentLink } from '@/components/ui/intent-link'
import { fixDraftHref, type FixDraft, MAX_DRAFT_HREF_LENGTH } from '@/lib/explain/fix-drafts'

/**
 * A fix as a link to the Apply page with the draft filled in (the person still reviews and applies
 * it there); a draft too long for a URL is offered to copy instead.
 */
export function FixLink({ fix, compact = false }: { fix: Pick<FixDraft, 'summary' | 'yaml' | 'target'>; compact?: boolean }) {
  const href = fixDraftHref(fix)
  const what = `${fix.target.kind} ${fix.target.namespace}/${fix.target.name}`
  // Someone who may not change the resource is told the fix, not offered an Apply page that refuses them.
  if (!useMayChangeKind(fix.target.kind))
    return (
      <span className="text-slate-700">
        {compact ? 'Fix' : 'The fix'} (an operator applies it): {fix.summary}.
      </span>
    )
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-2 gap-y-1">
      {!compact && <span className="text-slate-700">Fix: {fix.summary}.</span>}
      {href.length <= MAX_DRAFT_HREF_LENGTH ? (
        <IntentLink
          href={href}
          data-testid="fix-link"
          className="font-medium text-sky-800 underline-offset-2 hover:underline"
          title={`Opens the Apply page with the changed manifest of ${what}, to review and apply`}
        >
          {compact ? `Fix: ${fix.summary}` : 'Open the draft in Apply'} →
        </IntentLink>
      ) : (
        <span className="inline-flex items-center gap-1 text-xs text-slate-600">
          The draft is too long for a link: <CopyButton text={fix.yaml} label="Copy the draft" /> and paste it on the{' '}
          <IntentLink href="/apply" className="text-sky-800 hover:underline">
            Apply page
          </IntentLink>
        </span>
      )}
    </span>
  )
}
