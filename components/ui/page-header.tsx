import { IntentLink } from '@/components/ui/intent-link'

export interface Crumb {
  label: string
  href?: string
}

export function PageHeader({
  title,
  subtitle,
  crumbs,
  actions,
  children,
}: {
  title: React.ReactNode
  subtitle?: React.ReactNode
  crumbs?: Crumb[]
  actions?: React.ReactNode
  children?: React.ReactNode
}) {
  return (
    <div className="mb-5">
      {crumbs && crumbs.length > 0 && (
        <nav aria-label="Breadcrumb" className="mb-1 text-xs text-slate-500 [overflow-wrap:anywhere]">
          {crumbs.map((c, i) => (
            <span key={i}>
              {i > 0 && <span className="mx-1">/</span>}
              {c.href ? (
                <IntentLink href={c.href} className="hover:text-slate-800 hover:underline">
                  {c.label}
                </IntentLink>
              ) : (
                c.label
              )}
            </span>
          ))}
        </nav>
      )}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold text-slate-900 [overflow-wrap:anywhere]">{title}</h1>
          {subtitle && <div className="mt-1 text-sm text-slate-600 [overflow-wrap:anywhere]">{subtitle}</div>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      {children && <div className="mt-3">{children}</div>}
    </div>
  )
}
