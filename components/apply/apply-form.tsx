'use client'
// Apply as an editor: write or paste a manifest (or open one from a link's `?draft=`), validate it to
// see every problem marked at its line, fix them, look at what a dry run would change, then apply.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback, useRef, useState } from 'react'
import { useCan } from '@/components/access/caller-context'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { ApiError, applyManifest, type FieldError } from '@/lib/client/api'
import type { KindSchema } from '@/lib/client/manifest-completion'
import { ADMIN_ONLY_KINDS } from '@/lib/auth/admin-only-kinds'
import { queryKeys } from '@/lib/client/query-keys'
import { ApplyProblems } from './apply-problems'
import type { ApplyAnswer } from '@/lib/client/apply-answer'
import { ApplyResults } from './apply-results'
import { EXAMPLE_MANIFEST } from './example-manifest'
import { ManifestEditor, type ManifestEditorHandle } from './manifest-editor'

const NO_PROBLEMS: FieldError[] = []

export function ApplyForm({ kinds, draft }: { kinds: readonly KindSchema[]; draft?: string }) {
  const client = useQueryClient()
  const [text, setText] = useState(draft ?? '')
  const [fileName, setFileName] = useState<string | null>(null)
  // The text the shown answer is about: once it is edited, the answer is the last validation's, not the text's.
  const [answered, setAnswered] = useState<string | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const editor = useRef<ManifestEditorHandle>(null)
  // The last dry run's answer and the text it was about: an Apply of that same text keeps showing
  // its impact on agents and its warnings, which a real apply does not work out again.
  const [lastDryRun, setLastDryRun] = useState<{ text: string; answer: ApplyAnswer } | null>(null)
  const apply = useMutation({
    mutationFn: ({ dryRun, sent }: { dryRun: boolean; sent: string }) => applyManifest(sent, dryRun),
    onSuccess: (answer, { sent }) => {
      if (answer.dryRun) setLastDryRun({ text: sent, answer })
      else void client.invalidateQueries({ queryKey: queryKeys.all })
    },
  })
  const busy = apply.isPending
  // The server refuses these kinds to non-admins document by document; say so before they try.
  const isAdmin = useCan('admin')
  const run = (dryRun: boolean) => {
    setAnswered(text)
    apply.mutate({ dryRun, sent: text })
  }
  const validate = useCallback(() => {
    if (!text.trim() || apply.isPending) return
    setAnswered(text)
    apply.mutate({ dryRun: true, sent: text })
  }, [apply, text])
  const stale = answered !== null && answered !== text && Boolean(apply.data || apply.error)
  const error = apply.error ? (apply.error instanceof ApiError ? apply.error : new ApiError(0, 'Error', String(apply.error))) : null
  const problems = error?.errors ?? NO_PROBLEMS
  const lines = text ? text.split('\n').length : 0

  return (
    <div className="space-y-4">
      {draft !== undefined && (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="draft-notice">
          This manifest came from a link. Read it before you apply it: validating writes nothing.
        </p>
      )}
      <Card
        title="Manifest"
        description={`One or more YAML documents separated by ---, or JSON (an object, an array, or a List). Everything is validated first; nothing is written unless every document is valid. Ctrl+Space completes keys and values.${isAdmin ? '' : ` ${new Intl.ListFormat('en', { type: 'conjunction' }).format(ADMIN_ONLY_KINDS)} documents need an admin.`}`}
        actions={
          <>
            <input
              ref={fileInput}
              type="file"
              accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml"
              className="hidden"
              data-testid="manifest-file"
              onChange={async (e) => {
                const file = e.target.files?.[0]
                if (!file) return
                setText(await file.text())
                setFileName(file.name)
                apply.reset()
                e.target.value = ''
              }}
            />
            <Button onClick={() => fileInput.current?.click()}>Upload file</Button>
            {!text && (
              <Button variant="ghost" onClick={() => setText(EXAMPLE_MANIFEST)}>
                Insert example
              </Button>
            )}
          </>
        }
        bodyClassName="p-3"
      >
        <ManifestEditor
          ref={editor}
          value={text}
          onChange={setText}
          problems={problems}
          kinds={kinds}
          onValidate={validate}
          placeholderText={'apiVersion: toolroom.dev/v1alpha1\nkind: Agent\nmetadata:\n  name: my-agent\nspec: {}'}
        />
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <Button aria-label="Validate" onClick={() => run(true)} disabled={!text.trim() || busy}>
            {busy && apply.variables?.dryRun ? 'Validating…' : 'Validate (dry run)'}
          </Button>
          <Button aria-label="Apply" variant="primary" onClick={() => run(false)} disabled={!text.trim() || busy}>
            {busy && !apply.variables?.dryRun ? 'Applying…' : 'Apply'}
          </Button>
          <span className="text-xs text-slate-500">
            {fileName ? `Loaded ${fileName}. ` : ''}
            {lines ? `${lines} lines` : ''} {text && '· Ctrl+Enter validates'}
            {problems.length > 0 && ` · ${problems.length} problem${problems.length === 1 ? '' : 's'} ${stale ? 'found by the last validation' : 'marked'}`}
          </span>
        </div>
      </Card>
      {(apply.data || error) && (
        <Card
          title={error ? `Problems (${error.errors.length || 1})` : 'Results'}
          description={stale ? "The manifest changed since: these are the last validation's findings. Validate again to check the text as it is." : undefined}
          bodyClassName=""
          className={error ? 'border-red-200' : ''}
        >
          {error ? (
            <ApplyProblems error={error} onGoTo={(line, column) => editor.current?.goTo(line, column)} />
          ) : (
            apply.data && (
              <ApplyResults answer={apply.data} dryRun={!apply.data.dryRun && lastDryRun?.text === apply.variables?.sent ? lastDryRun.answer : null} />
            )
          )}
        </Card>
      )}
    </div>
  )
}
