'use client'
// A modal question with two answers, on the browser's own <dialog>: it traps focus, Escape cancels,
// and it sits above everything. Focus starts on Cancel, so a key pressed out of habit never confirms.
// With `holdOnTouch`, a finger must hold the confirming button: a stray tap never confirms.
import { useEffect, useRef } from 'react'
import { Button } from './button'
import { HoldButton } from './hold-button'

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'primary',
  busy = false,
  confirmDisabled = false,
  holdOnTouch = false,
  onConfirm,
  onCancel,
  testId,
}: {
  title: string
  children?: React.ReactNode
  confirmLabel: string
  cancelLabel?: string
  tone?: 'primary' | 'danger'
  busy?: boolean
  /** The answer is not complete yet (a reason still missing). */
  confirmDisabled?: boolean
  holdOnTouch?: boolean
  onConfirm: () => void
  onCancel: () => void
  testId?: string
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    const before = document.activeElement
    const d = dialog.current
    if (d && !d.open) d.showModal()
    cancel.current?.focus()
    return () => (before as HTMLElement | null)?.focus?.()
  }, [])
  return (
    <dialog
      ref={dialog}
      aria-labelledby="confirm-dialog-title"
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault()
        onCancel()
      }}
      className="m-auto w-[min(32rem,calc(100vw-1.5rem))] max-w-none rounded-lg bg-white p-0 shadow-2xl backdrop:bg-slate-900/50"
    >
      <div className="p-4">
        <h2 id="confirm-dialog-title" className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {children && <div className="mt-2 text-sm text-slate-700">{children}</div>}
      </div>
      <div className="flex justify-end gap-2 border-t border-slate-200 bg-slate-50 px-4 py-3">
        <Button ref={cancel} onClick={onCancel} disabled={busy} className={holdOnTouch ? 'h-11 lg:h-8' : ''}>
          {cancelLabel}
        </Button>
        {holdOnTouch ? (
          <HoldButton variant={tone} onConfirm={onConfirm} disabled={busy || confirmDisabled} className="h-11 lg:h-8" testId="confirm-hold">
            {confirmLabel}
          </HoldButton>
        ) : (
          <Button variant={tone} onClick={onConfirm} disabled={busy || confirmDisabled}>
            {confirmLabel}
          </Button>
        )}
      </div>
    </dialog>
  )
}
