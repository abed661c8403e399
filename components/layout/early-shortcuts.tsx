import { headers } from 'next/headers'
import { EARLY_SHORTCUTS_SCRIPT } from './early-shortcut-note'

/** A script inlined in the page, run as soon as it is parsed; allowed by the request's CSP nonce (proxy.ts). */
export async function InlineScript({ code }: { code: string }) {
  const nonce = (await headers()).get('x-nonce') ?? undefined
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: code }} />
}

/** The inline script of early-shortcut-note.ts, first in the portal's body. */
export function EarlyShortcuts() {
  return <InlineScript code={EARLY_SHORTCUTS_SCRIPT} />
}
