'use client'
// "Explain a call": pick one of the agent's tools (or type any name), give the arguments as JSON, and
// read what the gateway would do with that call now, and why. Nothing is called or recorded. Picking a
// tool fills the arguments in from its inputSchema (until the person edits them), and the answer takes
// the focus when it comes.
import { useMutation } from '@tanstack/react-query'
import { type Ref, useEffect, useId, useImperativeHandle, useRef, useState } from 'react'
import { ExplainTrace } from '@/components/explain/explain-trace'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Field, Form, TextArea, TextInput } from '@/components/ui/form'
import { ErrorState } from '@/components/ui/states'
import { ApiError } from '@/lib/client/api'
import { exampleArguments } from '@/lib/client/example-arguments'
import { type ExplainBody, explainCall } from '@/lib/client/explain-api'
import { focusAnswer } from '@/lib/client/focus-answer'

export interface ExplainCallPanelHandle {
  /** A card's "Explain": picks its tool and explains a call with the arguments given so far. */
  explain(tool: string): void
}

function parseArguments(text: string): Record<string, unknown> {
  if (!text.trim()) return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw new ApiError(0, 'Arguments are not JSON', `the arguments are not valid JSON: ${(e as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ApiError(0, 'Arguments must be an object', 'the arguments must be a JSON object, e.g. {"text": "hello"}')
  return value as Record<string, unknown>
}

export function ExplainCallPanel({
  agentId,
  namespace,
  toolNames,
  inputSchemas,
  ref,
}: {
  agentId: string
  namespace?: string
  toolNames: string[]
  /** The inputSchema of each tool of the agent's set, by name: what the arguments are filled in from. */
  inputSchemas?: ReadonlyMap<string, unknown>
  ref?: Ref<ExplainCallPanelHandle>
}) {
  const ids = useId()
  const [tool, setTool] = useState('')
  const [args, setArgs] = useState('{}')
  // The arguments as last filled in from a schema: while the field still shows them, picking another tool refills it.
  const [filled, setFilled] = useState('{}')
  const [key, setKey] = useState('')
  const answer = useRef<HTMLDivElement>(null)
  const explain = useMutation({
    mutationFn: (body: ExplainBody) => explainCall(agentId, namespace, body),
  })
  const [formError, setFormError] = useState<Error | null>(null)
  /** Picks a tool: the arguments follow its schema unless the person has written their own. */
  const pick = (name: string): string => {
    setTool(name)
    if (args !== filled || !inputSchemas?.has(name)) return args
    const next = exampleArguments(inputSchemas.get(name))
    setArgs(next)
    setFilled(next)
    return next
  }
  const run = (name: string, text = args) => {
    try {
      const body: ExplainBody = { tool: name.trim(), arguments: parseArguments(text), ...(key.trim() ? { idempotencyKey: key.trim() } : {}) }
      explain.mutate(body)
    } catch (e) {
      explain.reset()
      setFormError(e as Error)
      return
    }
    setFormError(null)
  }

  // Called from the card's click, not from an effect on a prop: the form's own edits wait for its button.
  useImperativeHandle(ref, () => ({
    explain(name: string) {
      run(name, pick(name))
    },
  }))

  const error = formError ?? explain.error
  // The answer (or what went wrong) takes the focus once it is on screen, so it is read next.
  useEffect(() => {
    if (explain.data || error) focusAnswer(answer.current)
  }, [explain.data, error])
  return (
    <Card
      id="explain"
      title="Explain a call"
      description="What the gateway would do with this call now, and why: nothing is called, no limit is counted, nothing is recorded."
      className="scroll-mt-4"
    >
      <div className="space-y-4">
        <Form className="grid gap-3 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]" onSubmit={() => run(tool)}>
          <div className="space-y-3">
            <Field label="Tool">
              <TextInput
                monospace
                list={`${ids}-names`}
                value={tool}
                onChange={(e) => pick(e.target.value)}
                placeholder="e.g. github.create_issue"
                required
                maxLength={256}
                autoComplete="off"
                spellCheck={false}
                className="w-full"
              />
              <datalist id={`${ids}-names`}>
                {toolNames.map((n) => (
                  <option key={n} value={n} />
                ))}
              </datalist>
            </Field>
            <Field label="Idempotency key (optional)">
              <TextInput
                monospace
                value={key}
                onChange={(e) => setKey(e.target.value)}
                maxLength={512}
                placeholder="as the caller would send it"
                spellCheck={false}
                className="w-full"
              />
            </Field>
            <Button type="submit" variant="primary" disabled={!tool.trim() || explain.isPending}>
              {explain.isPending ? 'Explaining…' : 'Explain'}
            </Button>
          </div>
          <Field label="Arguments (JSON)" className="min-w-0">
            <TextArea code value={args} onChange={(e) => setArgs(e.target.value)} rows={6} spellCheck={false} />
          </Field>
        </Form>
        <div ref={answer} tabIndex={-1} className="outline-none" data-testid="explain-answer">
          {error ? (
            <ErrorState error={error} title={(error as ApiError).title ?? 'Could not explain'} />
          ) : (
            explain.data && <ExplainTrace explanation={explain.data} />
          )}
        </div>
      </div>
    </Card>
  )
}
