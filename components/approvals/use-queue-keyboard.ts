'use client'
import { useEffect, useRef } from 'react'

export interface QueueKeys {
  next: () => void
  previous: () => void
  approve: () => void
  deny: () => void
  toggleSelect: () => void
}

// j/k or arrows move, a approves, d denies, x selects for a bulk decision. Keys typed into a field
// (the comment box, the filters) are the field's.
export function useQueueKeyboard(keys: QueueKeys) {
  const latest = useRef(keys)
  useEffect(() => {
    latest.current = keys
  })
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const target = e.target as HTMLElement | null
      if (e.metaKey || e.ctrlKey || e.altKey || !target) return
      if (target.closest('input, textarea, select, [contenteditable="true"]')) return
      const k = latest.current
      const action = { j: k.next, ArrowDown: k.next, k: k.previous, ArrowUp: k.previous, a: k.approve, d: k.deny, x: k.toggleSelect }[e.key]
      if (!action) return
      e.preventDefault()
      action()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
