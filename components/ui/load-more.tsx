import { Button } from './button'

export function LoadMore({
  hasNextPage,
  isFetchingNextPage,
  onLoadMore,
  shown,
}: {
  hasNextPage: boolean
  isFetchingNextPage: boolean
  onLoadMore: () => void
  shown: number
}) {
  return (
    <div className="flex items-center justify-between border-t border-slate-200 px-3 py-2 text-xs text-slate-500">
      <span>
        {shown} shown{hasNextPage ? ', more available' : ''}
      </span>
      {hasNextPage && (
        <Button onClick={onLoadMore} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      )}
    </div>
  )
}
