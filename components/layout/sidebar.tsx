'use client'
import { usePathname } from 'next/navigation'
import { useCaller } from '@/components/access/caller-context'
import { UserMenu } from '@/components/access/user-menu'
import { IntentLink } from '@/components/ui/intent-link'
import { type Access, isAllowed } from '@/lib/auth/access-rules'

const NAV: { href: string; label: string; hint: string | null; access?: Access }[] = [
  { href: '/', label: 'Dashboard', hint: null },
  { href: '/agents', label: 'Agents', hint: null },
  { href: '/units', label: 'Units', hint: null },
  { href: '/tools', label: 'Tools', hint: null },
  { href: '/language-tools', label: 'LanguageTools', hint: 'MCP servers' },
  { href: '/connectors', label: 'Connectors', hint: null },
  { href: '/secrets', label: 'Secrets', hint: null },
  { href: '/discovery', label: 'Discovery', hint: 'runs and reviews' },
  { href: '/approvals', label: 'Approvals', hint: null },
  { href: '/calls', label: 'Calls', hint: 'explorer' },
  { href: '/apply', label: 'Apply', hint: null, access: 'write' },
  { href: '/audit', label: 'Audit log', hint: null },
  { href: '/people', label: 'People', hint: null, access: 'admin' },
  { href: '/tokens', label: 'Access tokens', hint: null },
]

function isActive(pathname: string, href: string) {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`)
}

export function Sidebar() {
  const pathname = usePathname() ?? '/'
  const caller = useCaller()
  const visible = NAV.filter((item) => !item.access || (caller && isAllowed({ kind: 'user', id: caller.id, name: caller.name, roles: [caller.role], via: 'session' }, item.access)))
  return (
    <aside className="flex w-52 shrink-0 flex-col border-r border-slate-800 bg-slate-900 text-slate-300">
      <IntentLink href="/" className="flex items-center gap-2 px-4 py-4 text-white">
        <span aria-hidden className="grid h-7 w-7 place-items-center rounded bg-amber-400 font-mono text-sm font-bold text-slate-900">
          T
        </span>
        <span className="text-base font-semibold tracking-tight">Toolroom</span>
      </IntentLink>
      <nav aria-label="Main" className="flex-1 px-2">
        <ul className="space-y-0.5">
          {visible.map((item) => {
            const active = isActive(pathname, item.href)
            return (
              <li key={item.href}>
                <IntentLink
                  href={item.href}
                  aria-current={active ? 'page' : undefined}
                  className={`block rounded-md px-3 py-1.5 text-sm ${
                    active ? 'bg-slate-700 font-medium text-white' : 'hover:bg-slate-800 hover:text-white'
                  }`}
                >
                  {item.label}
                  {item.hint && <span className="block text-[11px] leading-tight text-slate-400">{item.hint}</span>}
                </IntentLink>
              </li>
            )
          })}
        </ul>
      </nav>
      <UserMenu />
    </aside>
  )
}
