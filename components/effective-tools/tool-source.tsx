import { IntentLink } from '@/components/ui/intent-link'
import { shortDigest } from '@/lib/client/format'
import { hasPage, resourceHref } from '@/lib/client/links'

/** Where an effective tool comes from: a Tool, connector, LanguageTool, agent or unit, or the platform. */
export interface ToolSourceRef {
  kind: string
  name: string
  namespace: string | null
}

/** "Tool finance/stripe.create_refund", linked to its page where the kind has one. */
export function ToolSourceLink({
  source,
  className = 'text-sky-800 hover:underline',
  plainClassName,
}: {
  source: ToolSourceRef
  className?: string
  plainClassName?: string
}) {
  const label = `${source.kind} ${source.namespace ? `${source.namespace}/` : ''}${source.name}`
  if (!hasPage(source.kind)) return <span className={plainClassName}>{label}</span>
  return (
    <IntentLink href={resourceHref(source.kind, source.name, source.namespace)} className={className}>
      {label}
    </IntentLink>
  )
}

/** A provenance with an image digest cut to its first characters: `image:sha256:3f9a1c…`. */
export function shortProvenance(provenance: string) {
  return provenance.startsWith('image:') ? `image:${shortDigest(provenance.slice('image:'.length))}` : provenance
}
