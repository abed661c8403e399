import { IntentLink } from '@/components/ui/intent-link'
import { Badge } from '@/components/ui/badge'
import { refHref, resourceHref } from '@/lib/client/links'

function None({ children = 'none' }: { children?: string }) {
  return <span className="text-slate-400">{children}</span>
}

/** The unit a resource names (an agent's unit, a unit's parent), or what having none means. */
export function UnitLink({ name, namespace, none }: { name: string | undefined; namespace: string; none?: string }) {
  if (!name) return <None>{none}</None>
  return (
    <IntentLink href={resourceHref('Unit', name, namespace)} className="text-sky-800 hover:underline">
      {name}
    </IntentLink>
  )
}

function LinkList({ items, href }: { items: string[] | undefined; href: (item: string) => string }) {
  if (!items?.length) return <None />
  return (
    <span className="flex flex-wrap gap-x-3 gap-y-1">
      {items.map((item) => (
        <IntentLink key={item} href={href(item)} className="font-mono text-xs text-sky-800 hover:underline">
          {item}
        </IntentLink>
      ))}
    </span>
  )
}

export function ConnectorLinks({ slugs }: { slugs: string[] | undefined }) {
  // Connector slugs are unique across namespaces, so the page finds them without one.
  return <LinkList items={slugs} href={(slug) => resourceHref('Connector', slug)} />
}

export function GrantLinks({ grants, namespace }: { grants: string[] | undefined; namespace: string }) {
  return <LinkList items={grants} href={(ref) => refHref('Tool', ref, namespace)} />
}

export function LanguageToolLinks({ refs, namespace }: { refs: string[] | undefined; namespace: string }) {
  return <LinkList items={refs} href={(ref) => refHref('LanguageTool', ref, namespace)} />
}

export function Toggles({ toggles }: { toggles: Record<string, boolean> | undefined }) {
  const entries = Object.entries(toggles ?? {})
  if (entries.length === 0) return <None />
  return (
    <span className="flex flex-wrap gap-1">
      {entries.map(([tool, on]) => (
        <Badge key={tool} tone={on ? 'green' : 'gray'} className="font-mono font-normal" title={on ? 'forced on' : 'turned off'}>
          {tool}: {on ? 'on' : 'off'}
        </Badge>
      ))}
    </span>
  )
}
