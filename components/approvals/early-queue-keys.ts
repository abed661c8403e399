// The queue's moves (j/k, ↓/↑) work from first paint: the rows are in the server's HTML well before
// React has hydrated them and the queue listens (docs/design/approvals.md#the-queue), and a key
// pressed in between would be lost, so a person presses again and waits. A tiny inline script, first
// in the page (InlineScript, with the request's CSP nonce), counts the moves; once the queue listens
// it makes them, as if they had come a moment later. Only moves: a decision (a, d, x) is never made
// on a key pressed before the page could show what it decides.
const NOTE = '__toolroomEarlyQueueMoves'
const TAKE = '__toolroomTakeEarlyQueueMoves'

// Keys typed into a field (the filters) are text, as use-queue-keyboard.ts has it.
export const EARLY_QUEUE_KEYS_SCRIPT = `(function(){var w=window;w.${NOTE}=0;function k(e){var t=e.target;if(e.metaKey||e.ctrlKey||e.altKey||!t||!t.closest||t.closest('input,textarea,select,[contenteditable]'))return;var m=e.key==='j'||e.key==='ArrowDown'?1:e.key==='k'||e.key==='ArrowUp'?-1:0;if(!m)return;e.preventDefault();w.${NOTE}+=m}w.addEventListener('keydown',k);w.${TAKE}=function(){w.removeEventListener('keydown',k);var n=w.${NOTE}|0;w.${NOTE}=0;return n}})()`

/** Stops the early listener; the net number of moves (down positive) pressed before the queue listened. */
export function takeEarlyQueueMoves(): number {
  const take = (window as unknown as Record<string, (() => number) | undefined>)[TAKE]
  return take?.() ?? 0
}
