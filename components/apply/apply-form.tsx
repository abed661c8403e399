'use client'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { useCan } from '@/components/access/caller-context'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { ApiError, applyManifest } from '@/lib/client/api'
import { ADMIN_ONLY_KINDS } from '@/lib/auth/admin-only-kinds'
import { queryKeys } from '@/lib/client/query-keys'
import { ApplyErrors, ApplyResults } from './apply-results'
import { EXAMPLE_MANIFEST } from './example-manifest'

export function ApplyForm({ initialText }: { initialText?: string } = {}) {
  const client = useQueryClient()
  const [text, setText] = useState(initialText ?? '')
  const [fileName, setFileName] = useState<string | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const apply = useMutation({
    mutationFn: ({ dryRun }: { dryRun: boolean }) => applyManifest(text, dryRun),
    onSuccess: (answer) => {
      if (!answer.dryRun) void client.invalidateQueries({ queryKey: queryKeys.all })
    },
  })
  const busy = apply.isPending
  // The server refuses these kinds to non-admins document by document; say so before they try.
  const isAdmin = useCan('admin')
  const run = (dryRun: boolean) => apply.mutate({ dryRun })

  return (
    <div className="space-y-4">
      <Card
        title="Manifest"
        description={`One or more YAML documents separated by ---, or JSON (an object, an array, or a List). Everything is validated first; nothing is written unless every document is valid.${isAdmin ? '' : ` ${ADMIN_ONLY_KINDS.join(' and ')} documents need an admin.`}`}
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
        <textarea
          aria-label="Manifest"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            // Ctrl/Cmd+Enter validates: the safe action is the quick one.
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && text.trim() && !busy) run(true)
          }}
          spellCheck={false}
          rows={18}
          placeholder={'apiVersion: toolroom.dev/v1alpha1\nkind: Agent\nmetadata:\n  name: my-agent\nspec: {}'}
          className="block w-full resize-y rounded-md border border-slate-300 bg-white p-3 font-mono text-xs leading-relaxed text-slate-900 focus:border-slate-500 focus:outline-none"
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
            {text ? `${text.split('\n').length} lines` : ''} {text && '· Ctrl+Enter validates'}
          </span>
        </div>
      </Card>
      {(apply.data || apply.error) && (
        <Card title={apply.error ? 'Errors' : 'Results'} bodyClassName="" className={apply.error ? 'border-red-200' : ''}>
          {apply.error ? (
            <ApplyErrors error={apply.error instanceof ApiError ? apply.error : new ApiError(0, 'Error', String(apply.error))} />
          ) : (
            apply.data && <ApplyResults answer={apply.data} />
          )}
        </Card>
      )}
    </div>
  )
}
