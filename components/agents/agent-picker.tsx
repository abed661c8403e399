'use client'
// Choosing an agent by typing: the browser's own suggestion list (a datalist) filled from the agents
// API as you type, so it works for a fleet of any size. The choice is `namespace/name`, which every
// agent route takes (the name, with ?namespace=) and the credential list filters on.
import { useQuery } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react'
import { Field, TextInput } from '@/components/ui/form'
import { listResources, type Resource } from '@/lib/client/api'
import { queryKeys } from '@/lib/client/query-keys'

const SUGGESTIONS = 20

/** What to ask the agents API for the typed text: `ns/na` searches names in that namespace. */
function searchFor(text: string): { namespace?: string; q?: string; limit: number } {
  const slash = text.indexOf('/')
  if (slash < 0) return { q: text.trim() || undefined, limit: SUGGESTIONS }
  return { namespace: text.slice(0, slash).trim() || undefined, q: text.slice(slash + 1).trim() || undefined, limit: SUGGESTIONS }
}

const sameSearch = (a: ReturnType<typeof searchFor>, b: ReturnType<typeof searchFor>) => a.namespace === b.namespace && a.q === b.q

export function AgentPicker({
  label = 'Agent',
  value,
  onChange,
  className = 'w-64',
}: {
  label?: string
  /** The chosen agent as `namespace/name`, or '' for none. */
  value: string
  onChange: (agent: string) => void
  className?: string
}) {
  const listId = useId()
  const [text, setText] = useState(value)
  const [search, setSearch] = useState(() => searchFor(value))
  // A parent that clears or sets the choice itself (after issuing, "Reset filters") sets the text
  // too; a choice this picker reported does not (that would wipe what is being typed).
  const reported = useRef(value)
  useEffect(() => {
    if (value !== reported.current) {
      reported.current = value
      setText(value)
    }
  }, [value])
  const choose = (agent: string) => {
    reported.current = agent
    onChange(agent)
  }
  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchFor(text)), 200)
    return () => clearTimeout(timer)
  }, [text])
  const suggestions = useQuery({
    queryKey: [...queryKeys.lists('agents'), 'picker', search],
    queryFn: () => listResources<Resource>('agents', search),
    placeholderData: (previous) => previous,
  })
  const options = (suggestions.data?.items ?? []).map((a) => `${a.metadata.namespace}/${a.metadata.name}`)
  // The answer in hand is for what is typed now (not for the text before the last keystrokes).
  const settled = suggestions.isSuccess && !suggestions.isPlaceholderData && sameSearch(search, searchFor(text))
  const typed = text.trim()
  const matches = options.includes(typed)

  // Only a name the API listed is a choice; what a parent set (from the address bar) stands as is.
  // Runs on the text, not on `value` (read as it is now): a parent clearing the choice must not see
  // it chosen again.
  const typedChanged = useEffectEvent((typed: string, matches: boolean) => {
    if (typed === value) return
    const chosen = matches ? typed : ''
    if (chosen !== value) choose(chosen)
  })
  useEffect(() => typedChanged(typed, matches), [typed, matches])

  return (
    <Field label={label}>
      <TextInput
        type="search"
        list={listId}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="namespace/name"
        autoComplete="off"
        aria-invalid={typed !== '' && settled && !matches ? true : undefined}
        className={`${className} aria-[invalid]:border-amber-400`}
      />
      <datalist id={listId}>
        {options.map((o) => (
          <option key={o} value={o} />
        ))}
      </datalist>
      {typed !== '' && settled && !matches && <span className="text-[11px] font-normal text-amber-800">pick an agent from the suggestions</span>}
    </Field>
  )
}
