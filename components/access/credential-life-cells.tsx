// The columns a bearer credential's row shares, API token or agent credential alike: when it was
// created (and by whom), when it expires, when it was last used, and its state.
import { Badge } from '@/components/ui/badge'
import { Td, Th } from '@/components/ui/table'
import { dateTime, timeAgo } from '@/lib/client/format'

const STATE_TONE = { active: 'green', expired: 'amber', revoked: 'gray' } as const

interface CredentialLife {
  createdAt: string
  createdBy?: string | null
  expiresAt: string | null
  lastUsedAt: string | null
  revokedAt: string | null
}

export function CredentialLifeHeaders() {
  return (
    <>
      <Th>Created</Th>
      <Th>Expires</Th>
      <Th>Last used</Th>
      <Th>State</Th>
    </>
  )
}

export function CredentialLifeCells({ credential: c, state }: { credential: CredentialLife; state: keyof typeof STATE_TONE }) {
  return (
    <>
      <Td className="text-xs text-slate-600" title={dateTime(c.createdAt)}>
        {timeAgo(c.createdAt)}
        {c.createdBy ? <span className="block text-slate-500">by {c.createdBy}</span> : null}
      </Td>
      <Td className="text-xs text-slate-600">{c.expiresAt ? dateTime(c.expiresAt) : 'never'}</Td>
      <Td className="text-xs text-slate-600" title={c.lastUsedAt ? dateTime(c.lastUsedAt) : undefined}>
        {c.lastUsedAt ? timeAgo(c.lastUsedAt) : 'never'}
      </Td>
      <Td>
        <Badge tone={STATE_TONE[state]} title={c.revokedAt ? `revoked ${dateTime(c.revokedAt)}` : undefined}>
          {state}
        </Badge>
      </Td>
    </>
  )
}
