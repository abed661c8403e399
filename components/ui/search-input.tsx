'use client'
import { useEffect, useRef, useState } from 'react'

/** A text filter that reports its value after typing pauses, so each keystroke is not a request. */
export function SearchInput({
  label,
  value,
  onChange,
  placeholder,
  delayMs = 300,
  className = 'w-56',
}: {
  label: string
  value: string
  onChange: (value: string) => void
  placeholder?: string
  delayMs?: number
  className?: string
}) {
  const [text, setText] = useState(value)
  const [lastValue, setLastValue] = useState(value)
  const latest = useRef(onChange)
  useEffect(() => {
    latest.current = onChange
  })

  // A value the parent changes (a reset, the address bar, this input's own report) replaces the text.
  if (value !== lastValue) {
    setLastValue(value)
    setText(value)
  }
  useEffect(() => {
    if (text === value) return
    const timer = setTimeout(() => latest.current(text), delayMs)
    return () => clearTimeout(timer)
  }, [text, value, delayMs])

  return (
    <label className="flex flex-col gap-0.5 text-xs font-medium text-slate-600">
      {label}
      <input
        type="search"
        value={text}
        placeholder={placeholder}
        onChange={(e) => setText(e.target.value)}
        className={`h-8 rounded-md border border-slate-300 bg-white px-2 text-sm font-normal text-slate-900 placeholder:text-slate-400 focus:border-slate-500 focus:outline-none ${className}`}
      />
    </label>
  )
}
