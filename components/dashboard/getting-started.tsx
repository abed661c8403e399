'use client'
// What a newcomer does first, as a checklist that follows what is there (the overview's firstRun facts,
// lib/resources/get-overview.ts): a step is done when the registry or the call log says so, not when
// someone ticks it. Hidden for good with "Hide" (this browser only).
import { useSyncExternalStore } from 'react'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { IntentLink } from '@/components/ui/intent-link'
import type { Overview } from '@/lib/client/api'

const HIDDEN_KEY = 'toolroom.gettingStarted.hidden'
const HIDDEN_EVENT = 'toolroom:getting-started-hidden'

function onHiddenChange(notify: () => void) {
  window.addEventListener('storage', notify)
  window.addEventListener(HIDDEN_EVENT, notify)
  return () => {
    window.removeEventListener('storage', notify)
    window.removeEventListener(HIDDEN_EVENT, notify)
  }
}
const hiddenHere = () => window.localStorage.getItem(HIDDEN_KEY) === '1'

const STEPS: { fact: keyof Overview['firstRun']; title: string; how: string; href: string; link: string }[] = [
  {
    fact: 'serverReady',
    title: 'Connect an MCP server',
    how: 'Apply a LanguageTool; Toolroom discovers its tools.',
    href: '/language-tools',
    link: 'MCP servers',
  },
  { fact: 'toolApplied', title: 'Apply a Tool', how: 'Describe a tool, its side effects and who may call it.', href: '/apply', link: 'Apply' },
  { fact: 'agentCredential', title: 'Give an agent a credential', how: 'On an agent’s page, under Credentials.', href: '/agents', link: 'Agents' },
  { fact: 'callMade', title: 'Make a call', how: 'The agent calls /mcp with its credential as a Bearer token.', href: '/calls', link: 'Calls' },
  { fact: 'callCounted', title: 'See it here', how: 'Calls are counted below within a minute.', href: '/calls', link: 'Calls' },
]

export function GettingStarted({ facts }: { facts: Overview['firstRun'] }) {
  // The server cannot know what this browser hid: it renders nothing, the browser decides after hydration.
  const hidden = useSyncExternalStore(onHiddenChange, hiddenHere, () => true)
  if (hidden) return null
  const done = STEPS.filter((s) => facts[s.fact]).length
  const next = STEPS.find((s) => !facts[s.fact])
  return (
    <Card
      title="Getting started"
      description={`${done} of ${STEPS.length} done${next ? `; next: ${next.title.toLowerCase()}` : ': the fleet is governed'}. Press ? for keyboard shortcuts.`}
      actions={
        <Button
          onClick={() => {
            window.localStorage.setItem(HIDDEN_KEY, '1')
            window.dispatchEvent(new Event(HIDDEN_EVENT))
          }}
        >
          Hide
        </Button>
      }
    >
      <ol className="grid gap-2 sm:grid-cols-2 lg:grid-cols-5" aria-label="First steps">
        {STEPS.map((step, i) => {
          const isDone = facts[step.fact]
          return (
            <li key={step.fact} className="flex gap-2 rounded-md border border-slate-200 p-2" data-done={isDone}>
              <span
                aria-hidden
                className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${isDone ? 'bg-emerald-600 text-white' : 'bg-slate-200 text-slate-700'}`}
              >
                {isDone ? '✓' : i + 1}
              </span>
              <div className="min-w-0 text-sm">
                <p className="font-medium text-slate-900">
                  {step.title} <span className="sr-only">{isDone ? '(done)' : '(to do)'}</span>
                </p>
                <p className="text-xs text-slate-600">
                  {step.how}{' '}
                  <IntentLink href={step.href} className="font-medium text-slate-900 underline">
                    {step.link}
                  </IntentLink>
                </p>
              </div>
            </li>
          )
        })}
      </ol>
    </Card>
  )
}
