'use client'
import { useEffect, useRef } from 'react'
import { takeEarlyQueueMoves } from './early-queue-keys'

export interface QueueKeys {
  next: () => void
  previous: () => void
  first: () => void
  last: () => void
  approve: () => void
  deny: () => void
  toggleSelect: () => void
  /** `delta` requests down (up when negative) from the one in focus, at once. */
  moveBy: (delta: number) => void
}

type KeyAction = Exclude<keyof QueueKeys, 'moveBy'>

const ACTIONS: Record<string, KeyAction> = {
  j: 'next',
  ArrowDown: 'next',
  k: 'previous',
  ArrowUp: 'previous',
  a: 'approve',
  d: 'deny',
  x: 'toggleSelect',
}
// Only while the list itself has focus: elsewhere these keys scroll the page or press a button.
const LIST_ACTIONS: Record<string, KeyAction> = { ' ': 'toggleSelect', Home: 'first', End: 'last' }

/** Where typed keys are text: an editable field of any kind but a box to tick. */
function typesText(target: HTMLElement): boolean {
  if (target.closest('textarea, select, [contenteditable="true"], [contenteditable=""]')) return true
  const input = target.closest('input')
  return input !== null && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(input.type)
}

// j/k or arrows move, a approves, d denies, x selects for a bulk decision; in the list, Space selects
// and Home/End jump. They work wherever the focus is (the list, a row's box, a button) except in a
// field that takes text (the comment box, the filters), and not while a dialog asks a question.
export function useQueueKeyboard(keys: QueueKeys, list: React.RefObject<HTMLElement | null>) {
  const latest = useRef(keys)
  useEffect(() => {
    latest.current = keys
  })
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const target = e.target as HTMLElement | null
      if (e.metaKey || e.ctrlKey || e.altKey || !target) return
      if (typesText(target) || document.querySelector('dialog[open]')) return
      const name = ACTIONS[e.key] ?? (list.current && list.current.contains(target) ? LIST_ACTIONS[e.key] : undefined)
      if (!name) return
      e.preventDefault()
      latest.current[name]()
    }
    window.addEventListener('keydown', onKey)
    // Moves pressed while the server's rows were on screen but the page did not listen yet.
    const early = takeEarlyQueueMoves()
    if (early !== 0) latest.current.moveBy(early)
    return () => window.removeEventListener('keydown', onKey)
  }, [list])
}
