// The bucket size of the 7-day statistics (the hourly rollups, by day or by hour) and the labels of
// their buckets on a chart's axis, in UTC as the rollups are.

export type Grain = 'day' | 'hour'

export const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })

/** Midnight is named by its day, so a week of hours still says which day is which. */
export const hourLabel = (hour: string) => {
  const d = new Date(hour)
  return d.getUTCHours() === 0 ? dayLabel(hour.slice(0, 10)) : `${String(d.getUTCHours()).padStart(2, '0')}:00`
}

/** "by day | by hour", for a card's actions. */
export function GrainToggle({ grain, onChange, label }: { grain: Grain; onChange: (grain: Grain) => void; label: string }) {
  return (
    <div role="group" aria-label={label} className="inline-flex overflow-hidden rounded-md border border-slate-300 text-xs">
      {(['day', 'hour'] as const).map((g) => (
        <button
          key={g}
          type="button"
          aria-pressed={grain === g}
          onClick={() => onChange(g)}
          className={`px-2.5 py-1 ${grain === g ? 'bg-slate-800 text-white' : 'bg-white text-slate-700 hover:bg-slate-100'}`}
        >
          by {g}
        </button>
      ))}
    </div>
  )
}
