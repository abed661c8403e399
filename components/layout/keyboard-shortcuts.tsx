'use client'
// `?` anywhere in the portal (but in a field that takes text) shows the keyboard shortcuts, in the
// browser's own modal <dialog>: it traps focus, and Escape or Close returns focus where it was.
import { useEffect, useRef } from 'react'
import { Button } from '@/components/ui/button'

/** Every shortcut the portal answers, by where it works; each group's keys are handled where the comment names. */
export const KEYBOARD_SHORTCUTS: { where: string; keys: [string[], string][] }[] = [
  {
    // components/layout/portal-shell.tsx
    where: 'Everywhere',
    keys: [
      [['Ctrl', 'K'], 'Search everything (⌘ K on a Mac)'],
      [['?'], 'Show these shortcuts'],
      [['Esc'], 'Close a dialog, the menu or a call’s details'],
    ],
  },
  {
    // components/search/search-palette.tsx
    where: 'Search',
    keys: [
      [['↓'], 'Next result (or Ctrl N)'],
      [['↑'], 'Previous result (or Ctrl P)'],
      [['Enter'], 'Open the result'],
    ],
  },
  {
    // components/approvals/use-queue-keyboard.ts
    where: 'Approvals queue',
    keys: [
      [['j'], 'Next request (or ↓); on the last one shown, the next page'],
      [['k'], 'Previous request (or ↑)'],
      [['a'], 'Approve (high-risk calls ask to confirm)'],
      [['d'], 'Deny'],
      [['x'], 'Select for a bulk decision (Space in the list)'],
      [['Home'], 'First request (End: the last)'],
    ],
  },
  {
    // components/apply/manifest-editor.tsx
    where: 'Apply',
    keys: [[['Ctrl', 'Enter'], 'Validate the manifest (⌘ Enter on a Mac)']],
  },
]

/** Where typed keys are text, so `?` is a character there, not a command. */
export function typesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.closest('textarea, select, [contenteditable="true"], [contenteditable=""], .cm-editor')) return true
  const input = target.closest('input')
  return input !== null && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(input.type)
}

export function KeyboardShortcutsDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const close = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    const before = document.activeElement
    const d = dialog.current
    if (d && !d.open) d.showModal()
    close.current?.focus()
    return () => (before as HTMLElement | null)?.focus?.()
  }, [])
  return (
    <dialog
      ref={dialog}
      aria-labelledby="keyboard-shortcuts-title"
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
      className="m-auto max-h-[calc(100vh-2rem)] w-[min(36rem,calc(100vw-1.5rem))] max-w-none overflow-y-auto rounded-lg bg-white p-0 shadow-2xl backdrop:bg-slate-900/50"
    >
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 id="keyboard-shortcuts-title" className="text-base font-semibold text-slate-900">
          Keyboard shortcuts
        </h2>
        <Button ref={close} onClick={onClose}>
          Close
        </Button>
      </div>
      <div className="space-y-4 p-4">
        {KEYBOARD_SHORTCUTS.map((group) => (
          <section key={group.where}>
            <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">{group.where}</h3>
            <dl className="mt-1 divide-y divide-slate-100">
              {group.keys.map(([keys, what]) => (
                <div key={what} className="flex items-center justify-between gap-3 py-1.5 text-sm">
                  <dt className="flex shrink-0 gap-1">
                    {keys.map((k) => (
                      <kbd key={k} className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-800">
                        {k}
                      </kbd>
                    ))}
                  </dt>
                  <dd className="text-right text-slate-700">{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </dialog>
  )
}
