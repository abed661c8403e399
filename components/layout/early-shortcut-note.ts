// Ctrl-K works from first paint: until React has hydrated, the portal's own listeners do not exist
// yet, and the key pressed then would be lost (or open the browser's own search). A tiny inline
// script (EarlyShortcuts, with the request's CSP nonce) notes the key; once PortalShell listens
// itself, the key is pressed again for it, as if it had come a moment later.
const NOTE = '__toolroomEarlySearch'
const TAKE = '__toolroomTakeEarlyShortcuts'

export const EARLY_SHORTCUTS_SCRIPT = `(function(){var w=window;function k(e){if((e.ctrlKey||e.metaKey)&&!e.altKey&&e.key&&e.key.toLowerCase()==='k'){e.preventDefault();w.${NOTE}=true}}w.addEventListener('keydown',k);w.${TAKE}=function(){w.removeEventListener('keydown',k);var r=w.${NOTE}===true;w.${NOTE}=false;return r}})()`

/** Stops the early listener and, if Ctrl-K came before the portal listened, sends it again. */
export function replayEarlyShortcuts(): void {
  const take = (window as unknown as Record<string, (() => boolean) | undefined>)[TAKE]
  if (take?.()) window.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, cancelable: true }))
}
