/** One headline number of a statistics card, red when it is bad news. */
export function Figure({ label, value, bad }: { label: string; value: React.ReactNode; bad?: boolean }) {
  return (
    <div>
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <p className={`mt-0.5 text-lg font-semibold tabular-nums ${bad ? 'text-red-700' : 'text-slate-900'}`}>{value}</p>
    </div>
  )
}
