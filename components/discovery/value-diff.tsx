'use client'
import { useMemo } from 'react'
import { diffLines, diffWords, stableJson, stableYaml, unifiedRows, type DiffPart } from '@/lib/client/text-diff'

const isText = (v: unknown) => typeof v === 'string' || v === undefined

/** Before and after of a text side by side, the words that went and came marked. */
function TextDiff({ before, after }: { before: string | undefined; after: string | undefined }) {
  const parts = useMemo(() => diffWords(before ?? '', after ?? ''), [before, after])
  const side = (keep: 'removed' | 'added', value: string | undefined, label: string) => (
    <div className="min-w-0 rounded-md border border-slate-200 bg-white">
      <p className="border-b border-slate-200 bg-slate-50 px-2 py-1 text-[11px] font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <p className="whitespace-pre-wrap break-words px-2 py-1.5 text-xs leading-relaxed text-slate-800">
        {value === undefined ? (
          <em className="text-slate-400">absent</em>
        ) : value === '' ? (
          <em className="text-slate-400">empty</em>
        ) : (
          parts
            .filter((p) => p.op === 'same' || p.op === keep)
            .map((p, i) =>
              p.op === 'same' ? (
                <span key={i}>{p.value}</span>
              ) : keep === 'removed' ? (
                <del key={i} className="rounded-sm bg-red-100 text-red-900 decoration-red-400">
                  {p.value}
                </del>
              ) : (
                <ins key={i} className="rounded-sm bg-emerald-100 text-emerald-900 no-underline">
                  {p.value}
                </ins>
              ),
            )
        )}
      </p>
    </div>
  )
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      {side('removed', before, 'Before')}
      {side('added', after, 'After')}
    </div>
  )
}

const SIGN: Record<DiffPart['op'], string> = { same: ' ', removed: '−', added: '+' }
const ROW: Record<DiffPart['op'], string> = { same: 'text-slate-700', removed: 'bg-red-50 text-red-900', added: 'bg-emerald-50 text-emerald-900' }

/**
 * Two values as a unified diff of their pretty-printed text (keys sorted), unchanged runs folded: as
 * JSON, or as YAML where the values are parts of manifests (Apply).
 */
export function JsonDiff({ before, after, format = 'json' }: { before: unknown; after: unknown; format?: 'json' | 'yaml' }) {
  const rows = useMemo(() => {
    // As YAML, no fields at all (a diff's side that only gains fields) is no lines rather than `{}`.
    const emptyMap = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0
    const print = format === 'yaml' ? (v: unknown) => (emptyMap(v) ? '' : stableYaml(v)) : stableJson
    return unifiedRows(diffLines(print(before), print(after)))
  }, [before, after, format])
  return (
    <div className="overflow-hidden rounded-md border border-slate-200 bg-white">
      <div className="flex gap-4 border-b border-slate-200 bg-slate-50 px-2 py-1 text-[11px] font-medium uppercase tracking-wide text-slate-500">
        <span>
          <span className="text-red-700">−</span> before{before === undefined ? ' (absent)' : ''}
        </span>
        <span>
          <span className="text-emerald-700">+</span> after{after === undefined ? ' (absent)' : ''}
        </span>
      </div>
      <div className="max-h-80 overflow-auto">
        <table className="w-full border-collapse font-mono text-[11px] leading-5">
          <tbody>
            {rows.map((row, i) =>
              row.kind === 'skipped' ? (
                <tr key={i} className="bg-slate-50 text-slate-400">
                  <td colSpan={4} className="px-2 text-center italic">
                    ⋯ {row.count} unchanged line{row.count === 1 ? '' : 's'}
                  </td>
                </tr>
              ) : (
                <tr key={i} className={ROW[row.op]}>
                  <td className="w-8 select-none px-1 text-right text-slate-400">{row.oldLine ?? ''}</td>
                  <td className="w-8 select-none px-1 text-right text-slate-400">{row.newLine ?? ''}</td>
                  <td className="w-4 select-none text-center" aria-label={row.op === 'same' ? undefined : row.op}>
                    {SIGN[row.op]}
                  </td>
                  <td className="whitespace-pre pr-2">{row.value}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
    </div>
  )
}

/** How one field of a tool changed: texts word by word side by side, anything else as a JSON diff. */
export function FieldDiff({ before, after }: { before: unknown; after: unknown }) {
  if (isText(before) && isText(after)) return <TextDiff before={before as string | undefined} after={after as string | undefined} />
  return <JsonDiff before={before} after={after} />
}
