'use client'
// A button that acts only when held, for touch and pen: a tap, such as the second tap of a double
// tap that opened its dialog, does nothing (docs/design/approvals.md#deciding-on-purpose). It acts
// when the finger lifts after the hold, and swallows that lift's click: were the dialog closed while
// the finger was still down, the browser's tap would land on whatever lies under it (the next request).
// With a mouse or the keyboard it is an ordinary button: reaching it there is already deliberate.
import { useEffect, useRef, useState } from 'react'
import { Button } from './button'

export function HoldButton({
  holdMs = 800,
  onConfirm,
  disabled,
  variant = 'primary',
  className = '',
  children,
  testId,
}: {
  holdMs?: number
  onConfirm: () => void
  disabled?: boolean
  variant?: 'primary' | 'danger'
  className?: string
  children: React.ReactNode
  testId?: string
}) {
  const [holding, setHolding] = useState(false)
  const [armed, setArmed] = useState(false)
  const armedRef = useRef(false)
  const timer = useRef<number | undefined>(undefined)
  const pointer = useRef('mouse')
  const reset = () => {
    window.clearTimeout(timer.current)
    armedRef.current = false
    setArmed(false)
    setHolding(false)
  }
  useEffect(() => () => window.clearTimeout(timer.current), [])
  return (
    <Button
      variant={variant}
      disabled={disabled}
      data-testid={testId}
      data-holding={holding || undefined}
      data-armed={armed || undefined}
      className={`relative touch-none select-none overflow-hidden ${className}`}
      onPointerDown={(e) => {
        pointer.current = e.pointerType
        if (e.pointerType === 'mouse' || disabled) return
        setHolding(true)
        timer.current = window.setTimeout(() => {
          armedRef.current = true
          setArmed(true)
        }, holdMs)
      }}
      onPointerUp={(e) => {
        window.clearTimeout(timer.current)
        if (!armedRef.current) return reset()
        // A pen has no touchend: it acts here.
        if (e.pointerType === 'pen') {
          reset()
          onConfirm()
        }
      }}
      onPointerCancel={reset}
      onPointerLeave={() => !armedRef.current && reset()}
      onTouchEnd={(e) => {
        if (!armedRef.current) return
        // No click from this lift, here or under the finger once the dialog is gone.
        e.preventDefault()
        reset()
        onConfirm()
      }}
      // A long press would otherwise open the phone's own menu.
      onContextMenu={(e) => e.preventDefault()}
      onClick={(e) => {
        // detail 0: activated from the keyboard.
        if (e.detail !== 0 && pointer.current !== 'mouse') return
        onConfirm()
      }}
    >
      <span
        aria-hidden
        className="absolute inset-y-0 left-0 bg-white/25 ease-linear"
        style={{ width: holding ? '100%' : '0%', transitionProperty: 'width', transitionDuration: holding ? `${holdMs}ms` : '0ms' }}
      />
      <span className="relative">{armed ? 'Release to confirm' : children}</span>
    </Button>
  )
}
