import { headers } from 'next/headers'
import { EARLY_SHORTCUTS_SCRIPT } from './early-shortcut-note'

/** The inline script of early-shortcut-note.ts, first in the portal's body. */
export async function EarlyShortcuts() {
  const nonce = (await headers()).get('x-nonce') ?? undefined
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: EARLY_SHORTCUTS_SCRIPT }} />
}
