// Says that calls made to a server's own endpoint are not governed (spec.directAccess).
export const UNGOVERNED = 'calls made there bypass Toolroom: no approvals, rate limits, argument checks or call log'

export function DirectAccessNotice({ servers }: { servers: string[] }) {
  if (servers.length === 0) return null
  return (
    <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p>
        <span className="font-semibold">Direct access: {servers.join(', ')}.</span> Agents are handed{' '}
        {servers.length === 1 ? "this server's" : "these servers'"} own endpoint in their config.yaml, beside the gateway; {UNGOVERNED}.
      </p>
    </div>
  )
}
