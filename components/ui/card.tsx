export function Card({
  title,
  description,
  actions,
  children,
  className = '',
  bodyClassName = 'p-4',
  id,
}: {
  title?: React.ReactNode
  description?: React.ReactNode
  actions?: React.ReactNode
  children: React.ReactNode
  className?: string
  bodyClassName?: string
  id?: string
}) {
  return (
    <section id={id} className={`min-w-0 rounded-lg border border-slate-200 bg-white shadow-sm ${className}`}>
      {(title || actions) && (
        <header className="flex flex-wrap items-start justify-between gap-2 border-b border-slate-200 px-4 py-3">
          <div className="min-w-0 flex-1 basis-72">
            {title && <h2 className="text-sm font-semibold text-slate-900 [overflow-wrap:anywhere]">{title}</h2>}
            {description && <p className="mt-0.5 text-xs text-slate-500 [overflow-wrap:anywhere]">{description}</p>}
          </div>
          {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
        </header>
      )}
      <div className={bodyClassName}>{children}</div>
    </section>
  )
}
