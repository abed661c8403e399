'use client'
import { ResourceHistory } from '@/components/audit/resource-history'
import { PageHeader } from '@/components/ui/page-header'
import { QueryView } from '@/components/ui/states'
import type { Plural, Resource } from '@/lib/client/api'
import { useResource } from '@/lib/client/hooks'
import { listHref, type PortalKind } from '@/lib/client/links'
import { useDocumentTitle } from '@/lib/client/use-document-title'

const PAGES: Record<PortalKind, { plural: Plural; list: string; loading: string }> = {
  Agent: { plural: 'agents', list: 'Agents', loading: 'Loading agent…' },
  Unit: { plural: 'units', list: 'Units', loading: 'Loading unit…' },
  Tool: { plural: 'tools', list: 'Tools', loading: 'Loading tool…' },
  LanguageTool: { plural: 'languagetools', list: 'LanguageTools', loading: 'Loading server…' },
  Connector: { plural: 'connectors', list: 'Connectors', loading: 'Loading connector…' },
  Secret: { plural: 'secrets', list: 'Secrets', loading: 'Loading secret…' },
  IdentityProvider: { plural: 'identityproviders', list: 'Identity providers', loading: 'Loading identity provider…' },
}

/**
 * The page of one registry resource, for every kind that has one: it loads the resource (by uuid, or
 * name and `?namespace=`), says so while it does, shows the error under a header that still says where
 * the reader is, and otherwise gives the header (list and namespace crumbs, name, subtitle, actions,
 * badges), the kind's own sections, and the resource's change history last.
 */
export function ResourceDetail<R extends Resource<unknown, unknown>>({
  kind,
  id,
  namespace,
  title = (resource) => <span className="font-mono">{resource.metadata.name}</span>,
  subtitle,
  actions,
  badges,
  loose = false,
  children,
}: {
  kind: PortalKind
  /** A uuid, or a name with `namespace`, as the address gave it. */
  id: string
  namespace?: string
  title?: (resource: R) => React.ReactNode
  subtitle?: (resource: R) => React.ReactNode
  actions?: (resource: R) => React.ReactNode
  badges?: (resource: R) => React.ReactNode
  /** Wider space between sections, for the pages led by an agent's or unit's tool set. */
  loose?: boolean
  /** The kind's own sections, between the header and the history. */
  children: (resource: R) => React.ReactNode
}) {
  const page = PAGES[kind]
  const query = useResource<R>(page.plural, id, namespace)
  useDocumentTitle(query.data && `${query.data.metadata.name} · ${kind}`)
  const listCrumb = { label: page.list, href: listHref(kind) }
  return (
    <QueryView query={query} loadingLabel={page.loading} errorHeader={<PageHeader crumbs={[listCrumb]} title={<span className="font-mono">{id}</span>} />}>
      {(resource) => {
        const { name, namespace: ns } = resource.metadata
        return (
          <>
            <PageHeader
              crumbs={[listCrumb, { label: ns, href: listHref(kind, ns) }]}
              title={title(resource)}
              subtitle={subtitle?.(resource)}
              actions={actions?.(resource)}
            >
              {badges && <div className="flex flex-wrap items-center gap-1.5">{badges(resource)}</div>}
            </PageHeader>
            <div className={loose ? 'space-y-5' : 'space-y-4'}>
              {children(resource)}
              <ResourceHistory kind={kind} namespace={ns} name={name} />
            </div>
          </>
        )
      }}
    </QueryView>
  )
}
