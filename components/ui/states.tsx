'use client'
import type { UseQueryResult } from '@tanstack/react-query'
import { ApiError } from '@/lib/client/api'

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-2 px-4 py-8 text-sm text-slate-500">
      <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-slate-600" aria-hidden />
      {label}
    </div>
  )
}

export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="px-4 py-8 text-center">
      <p className="text-sm font-medium text-slate-700">{title}</p>
      {children && <div className="mt-1 text-sm text-slate-500">{children}</div>}
    </div>
  )
}

export function ErrorState({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  const api = error instanceof ApiError ? error : null
  const heading = title ?? (api?.status === 404 ? 'Not found' : 'Something went wrong')
  return (
    <div role="alert" className="m-4 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
      <p className="font-semibold">{heading}</p>
      <p className="mt-1 break-words">{(error as Error)?.message ?? String(error)}</p>
      {api && api.errors.length > 0 && (
        <ul className="mt-2 list-disc pl-5">
          {api.errors.map((e, i) => (
            <li key={i}>
              <code className="font-mono text-xs">{e.field}</code>: {e.message}
            </li>
          ))}
        </ul>
      )}
      {onRetry && api?.status !== 404 && (
        <button type="button" onClick={onRetry} className="mt-3 rounded border border-red-300 bg-white px-2 py-1 text-xs font-medium hover:bg-red-100">
          Retry
        </button>
      )}
    </div>
  )
}

/** Renders the loading, error or empty state of a query, or its data. */
export function QueryView<T>({
  query,
  isEmpty,
  empty,
  loadingLabel,
  errorHeader,
  errorTitle,
  children,
}: {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending' | 'isError' | 'refetch'>
  isEmpty?: (data: T) => boolean
  empty?: React.ReactNode
  loadingLabel?: string
  /** Shown above the error, so a page that failed to load still says where the user is. */
  errorHeader?: React.ReactNode
  /** The error's heading, where the likely cause is known (e.g. filters the API refused). */
  errorTitle?: string
  children: (data: T) => React.ReactNode
}) {
  if (query.isPending) return <LoadingState label={loadingLabel} />
  if (query.isError)
    return (
      <>
        {errorHeader}
        <ErrorState error={query.error} onRetry={() => void query.refetch()} title={errorTitle} />
      </>
    )
  const data = query.data as T
  if (isEmpty?.(data)) return <>{empty ?? <EmptyState title="Nothing here yet" />}</>
  return <>{children(data)}</>
}
