// Tailwind only generates classes it can see written out, so every tone is spelled in full here.
const TONES = {
  gray: 'bg-slate-100 text-slate-700 ring-slate-200',
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  blue: 'bg-sky-50 text-sky-800 ring-sky-200',
  indigo: 'bg-indigo-50 text-indigo-800 ring-indigo-200',
  amber: 'bg-amber-50 text-amber-800 ring-amber-200',
  orange: 'bg-orange-50 text-orange-800 ring-orange-200',
  red: 'bg-red-50 text-red-800 ring-red-200',
  rose: 'bg-rose-50 text-rose-800 ring-rose-200',
  violet: 'bg-violet-50 text-violet-800 ring-violet-200',
  fuchsia: 'bg-fuchsia-50 text-fuchsia-800 ring-fuchsia-200',
  dark: 'bg-slate-800 text-white ring-slate-800',
} as const

export type BadgeTone = keyof typeof TONES

export function Badge({ tone = 'gray', title, children, className = '' }: { tone?: BadgeTone; title?: string; children: React.ReactNode; className?: string }) {
  return (
    <span
      title={title}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]} ${className}`}
    >
      {children}
    </span>
  )
}
