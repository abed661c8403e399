import { CallerProvider } from '@/components/access/caller-context'
import { EarlyShortcuts } from '@/components/layout/early-shortcuts'
import { PortalShell } from '@/components/layout/portal-shell'
import { requirePageCaller } from '@/lib/sign-in/page-caller'

export default async function PortalLayout({ children }: { children: React.ReactNode }) {
  const actor = await requirePageCaller()
  return (
    <CallerProvider caller={{ id: actor.id, name: actor.name, role: actor.roles[0] }}>
      <EarlyShortcuts />
      <PortalShell>{children}</PortalShell>
    </CallerProvider>
  )
}
