import { CallerProvider } from '@/components/access/caller-context'
import { PortalShell } from '@/components/layout/portal-shell'
import { requirePageCaller } from '@/lib/auth/page-caller'

export default async function PortalLayout({ children }: { children: React.ReactNode }) {
  const actor = await requirePageCaller()
  return (
    <CallerProvider caller={{ id: actor.id, name: actor.name, role: actor.roles[0] }}>
      <PortalShell>{children}</PortalShell>
    </CallerProvider>
  )
}
