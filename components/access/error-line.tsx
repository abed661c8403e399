/** Why something the person asked for was not done, in one line under the form or table it concerns. */
export function ErrorLine({ error }: { error: unknown }) {
  const message = typeof error === 'string' ? error : (error as Error)?.message
  return (
    <p role="alert" className="mt-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-900">
      {message}
    </p>
  )
}
