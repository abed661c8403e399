// The portal's sections, once: the navigation lists them and the search offers them as "Pages".
import type { Access } from '@/lib/auth/access-rules'

export interface NavItem {
  href: string
  label: string
  hint: string | null
  /** Shown only to people whose role has it (the page refuses the others anyway). */
  access?: Access
  /** Other words the search finds the page by. */
  keywords?: string[]
}

export const NAV_ITEMS: NavItem[] = [
  { href: '/', label: 'Dashboard', hint: null, keywords: ['overview', 'home'] },
  { href: '/agents', label: 'Agents', hint: null },
  { href: '/units', label: 'Units', hint: null, keywords: ['teams'] },
  { href: '/tools', label: 'Tools', hint: null },
  { href: '/language-tools', label: 'LanguageTools', hint: 'MCP servers', keywords: ['mcp', 'servers'] },
  { href: '/connectors', label: 'Connectors', hint: null },
  { href: '/secrets', label: 'Secrets', hint: null },
  {
    href: '/identity-providers',
    label: 'Identity providers',
    hint: 'whose people agents act for',
    keywords: ['idp', 'sso', 'oidc', 'token exchange', 'people'],
  },
  { href: '/discovery', label: 'Discovery', hint: 'runs and reviews', keywords: ['runs', 'reviews', 'introspection'] },
  { href: '/approvals', label: 'Approvals', hint: null, keywords: ['queue', 'decide'] },
  { href: '/calls', label: 'Calls', hint: 'explorer', keywords: ['explorer', 'log', 'failures'] },
  { href: '/apply', label: 'Apply', hint: null, access: 'write', keywords: ['manifest', 'yaml'] },
  { href: '/audit', label: 'Audit log', hint: null, keywords: ['history', 'changes'] },
  { href: '/people', label: 'People', hint: null, access: 'admin', keywords: ['users', 'roles'] },
  { href: '/tokens', label: 'Access tokens', hint: null, keywords: ['api', 'credentials'] },
  { href: '/connections', label: 'Connections', hint: 'your own accounts', keywords: ['connected accounts', 'oauth', 'sign in'] },
]

/** Pages the search offers besides the navigation's. */
export const MORE_PAGES: NavItem[] = [
  { href: '/approvals/settings', label: 'Approval settings', hint: 'policies and webhooks', access: 'read', keywords: ['policies', 'webhooks'] },
  { href: '/account', label: 'Your account', hint: 'password', keywords: ['password', 'profile'] },
]
