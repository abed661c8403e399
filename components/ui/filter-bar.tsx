export function FilterBar({ children, onReset }: { children: React.ReactNode; onReset?: () => void }) {
  return (
    <div className="flex flex-wrap items-end gap-3 border-b border-slate-200 px-3 py-3">
      {children}
      {onReset && (
        <button type="button" onClick={onReset} className="h-8 px-1 text-xs font-medium text-slate-500 hover:text-slate-900 hover:underline">
          Reset filters
        </button>
      )}
    </div>
  )
}
