// Every page of the portal, for the specs that walk them all (e2e/support/page-walk.ts): where it is,
// how to know it has rendered, and how a detail page finds a real id in the seeded demo fleet.
//
// Adding a page under app/(portal)/ (or another page route)? Add it here: the walk checks that every
// page.tsx is listed, so a new page cannot skip the phone, overflow and accessibility checks.
// Content a colleague adds to an existing page (a panel, a tab) is covered by that page's entry.
import type { APIRequestContext } from '@playwright/test'

export interface PortalPage {
  /** File-system route, as under app/: `/agents/[id]`. The walk matches it against every page.tsx. */
  route: string
  /** Names screenshots and tests. */
  name: string
  /** The address to open; detail pages look up a real resource with the admin's session. */
  path: string | ((api: APIRequestContext) => Promise<string>)
  /** The page's h1, which says it has rendered. */
  heading: RegExp
  /** Visited without a session (the sign-in page). */
  signedOut?: boolean
  /** The HTTP status the page answers with, if not 200. */
  status?: number
}

/** The id of the first resource the list API gives, for detail pages. */
const first = (plural: string, base: string) => async (api: APIRequestContext) => {
  const res = await api.get(`/api/v1/${plural}?limit=1`)
  if (!res.ok()) throw new Error(`GET /api/v1/${plural}: ${res.status()} ${await res.text()}`)
  const { items } = (await res.json()) as { items: { id: string }[] }
  if (!items.length) throw new Error(`the demo fleet has no ${plural}`)
  return `${base}/${items[0].id}`
}

export const PORTAL_PAGES: PortalPage[] = [
  { route: '/', name: 'dashboard', path: '/', heading: /^Dashboard$/ },
  { route: '/agents', name: 'agents', path: '/agents', heading: /^Agents$/ },
  { route: '/agents/[id]', name: 'agent', path: first('agents', '/agents'), heading: /./ },
  { route: '/units', name: 'units', path: '/units', heading: /^Units$/ },
  { route: '/units/[id]', name: 'unit', path: first('units', '/units'), heading: /./ },
  { route: '/tools', name: 'tools', path: '/tools', heading: /^Tools$/ },
  { route: '/tools/[id]', name: 'tool', path: first('tools', '/tools'), heading: /./ },
  { route: '/language-tools', name: 'language-tools', path: '/language-tools', heading: /^LanguageTools$/ },
  { route: '/language-tools/[id]', name: 'language-tool', path: first('languagetools', '/language-tools'), heading: /./ },
  { route: '/connectors', name: 'connectors', path: '/connectors', heading: /^Connectors$/ },
  { route: '/connectors/[id]', name: 'connector', path: first('connectors', '/connectors'), heading: /./ },
  { route: '/secrets', name: 'secrets', path: '/secrets', heading: /^Secrets$/ },
  { route: '/secrets/[id]', name: 'secret', path: first('secrets', '/secrets'), heading: /./ },
  { route: '/identity-providers', name: 'identity-providers', path: '/identity-providers', heading: /^Identity providers$/ },
  { route: '/identity-providers/[id]', name: 'identity-provider', path: first('identityproviders', '/identity-providers'), heading: /./ },
  { route: '/discovery', name: 'discovery', path: '/discovery', heading: /^Discovery$/ },
  { route: '/approvals', name: 'approvals', path: '/approvals', heading: /^Approvals$/ },
  { route: '/approvals/settings', name: 'approval-settings', path: '/approvals/settings', heading: /^Approval settings$/ },
  { route: '/calls', name: 'calls', path: '/calls', heading: /^Calls$/ },
  { route: '/apply', name: 'apply', path: '/apply', heading: /^Apply$/ },
  { route: '/audit', name: 'audit', path: '/audit', heading: /^Audit log$/ },
  { route: '/people', name: 'people', path: '/people', heading: /^People$/ },
  { route: '/tokens', name: 'tokens', path: '/tokens', heading: /^Access tokens$/ },
  { route: '/connections', name: 'connections', path: '/connections', heading: /^Your connections$/ },
  { route: '/account', name: 'account', path: '/account', heading: /^Your account$/ },
  // Opened without an authorization request, it says so (a real one comes from an MCP client: e2e/mcp-oauth.spec.ts).
  { route: '/oauth/consent', name: 'oauth-consent', path: '/oauth/consent', heading: /^Connect an MCP client$/ },
  { route: '/sign-in', name: 'sign-in', path: '/sign-in', heading: /^Sign in$/, signedOut: true },
  { route: '(not found)', name: 'not-found', path: '/no-such-page', heading: /^Page not found$/, status: 404 },
]
