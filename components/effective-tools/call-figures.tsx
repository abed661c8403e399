import type { EffectiveTool } from '@/lib/effective-tools/types'
import { count, isHighFailureRate, percent } from '@/lib/client/format'
import { callFigures } from '@/lib/client/tool-names'

/** An entry's 7-day calls: refusals (calls Toolroom stopped before the tool ran) are never shown as a 0 % failure rate. */
export function CallFigures({ tool, stacked = false }: { tool: Pick<EffectiveTool, 'totalCalls7d' | 'failureRate7d' | 'refusedCalls7d'>; stacked?: boolean }) {
  const f = callFigures(tool)
  if (f.calls === 0) return <span className="text-slate-500">{stacked ? 'no calls' : 'no calls in 7 days'}</span>
  if (f.ran === 0)
    return (
      <span className="text-slate-600">
        {count(f.refused)} refused{stacked ? '' : ', none ran'}
      </span>
    )
  const failed = <span className={isHighFailureRate(tool.failureRate7d) ? 'font-medium text-red-700' : ''}>{percent(tool.failureRate7d)} failed</span>
  if (stacked)
    return (
      <>
        {count(f.calls)}
        <div className="text-slate-500">{failed}</div>
        {f.refused > 0 && <div className="text-slate-500">{count(f.refused)} refused</div>}
      </>
    )
  return (
    <span className="text-slate-600">
      {count(f.calls)} calls · {failed}
      {f.refused > 0 && <> · {count(f.refused)} refused</>}
    </span>
  )
}
