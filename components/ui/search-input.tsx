'use client'
import { useEffect, useRef, useState } from 'react'
import { Field, TextInput } from './form'

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
    <Field label={label}>
      <TextInput type="search" value={text} placeholder={placeholder} onChange={(e) => setText(e.target.value)} className={className} />
    </Field>
  )
}
