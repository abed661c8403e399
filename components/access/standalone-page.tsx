// The pages a person sees outside the portal's frame (signing in, letting an MCP client connect): the
// name on the dark background, one white card, and fields a size larger than the portal's own.

export const STANDALONE_FIELD =
  'mt-1 block h-9 w-full rounded-md border border-slate-300 bg-white px-2.5 text-sm focus:border-slate-500 focus:outline-none focus:ring-1 focus:ring-slate-500'
export const STANDALONE_LABEL = 'block text-sm font-medium text-slate-700'

export function StandalonePage({ width = 'narrow', footer, children }: { width?: 'narrow' | 'wide'; footer?: string; children: React.ReactNode }) {
  return (
    <main className="grid min-h-screen place-items-center bg-slate-900 px-4 py-8">
      <div className={`w-full ${width === 'wide' ? 'max-w-md' : 'max-w-sm'}`}>
        <div className="mb-6 flex items-center justify-center gap-2 text-white">
          <span aria-hidden className="grid h-8 w-8 place-items-center rounded bg-amber-400 font-mono text-base font-bold text-slate-900">
            T
          </span>
          <span className="text-xl font-semibold tracking-tight">Toolroom</span>
        </div>
        <div className="rounded-lg bg-white p-6 shadow-lg">{children}</div>
        {footer && <p className="mt-4 text-center text-xs text-slate-300">{footer}</p>}
      </div>
    </main>
  )
}
