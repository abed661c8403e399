import { CallerProvider } from '@/components/access/caller-context'
import { Sidebar } from '@/components/layout/sidebar'
import { requirePageCaller } from '@/lib/auth/page-caller'

export default async function PortalLayout({ children }: { children: React.ReactNode }) {
  const actor = await requirePageCaller()
  return (
    <CallerProvider caller={{ id: actor.id, name: actor.name, role: actor.roles[0] }}>
      <div className="flex h-screen overflow-hidden">
        <Sidebar />
        <main className="min-w-0 flex-1 overflow-y-auto">
          <div className="mx-auto max-w-7xl px-6 py-5">{children}</div>
        </main>
      </div>
    </CallerProvider>
  )
}
