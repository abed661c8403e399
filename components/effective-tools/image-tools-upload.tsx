'use client'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { ApiError, putImageTools, type FieldError } from '@/lib/client/api'
import { queryKeys } from '@/lib/client/query-keys'
import { FieldErrorsTable } from '@/components/ui/field-errors-table'
import { Field, Form, TextArea, TextInput } from '@/components/ui/form'

/** Reads a tools manifest: the `GET /a2a/tools` array itself, or `{digest?, tools}`. */
function parseManifest(text: string): { digest?: string; tools: unknown[] } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new ApiError(0, 'Invalid JSON', `the manifest is not valid JSON: ${(error as Error).message}`)
  }
  if (Array.isArray(parsed)) return { tools: parsed }
  if (parsed && typeof parsed === 'object' && Array.isArray((parsed as { tools?: unknown }).tools)) {
    const { digest, tools } = parsed as { digest?: unknown; tools: unknown[] }
    return { ...(typeof digest === 'string' ? { digest } : {}), tools }
  }
  throw new ApiError(
    0,
    'Invalid manifest',
    'expected a JSON array of tool definitions ({name, description, inputSchema}) or an object {"digest", "tools": [...]}',
  )
}

export function ImageToolsUpload({
  plural,
  id,
  namespace,
  pinnedDigest,
  onDone,
}: {
  plural: 'agents' | 'units'
  id: string
  namespace?: string
  pinnedDigest: string | null
  onDone: (stored?: number) => void
}) {
  const client = useQueryClient()
  const [text, setText] = useState('')
  const [digest, setDigest] = useState('')
  const upload = useMutation({
    mutationFn: () => {
      const manifest = parseManifest(text)
      const chosen = digest.trim() || manifest.digest
      return putImageTools(plural, id, namespace, { ...(chosen ? { digest: chosen } : {}), tools: manifest.tools })
    },
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: queryKeys.details(plural) })
      void client.invalidateQueries({ queryKey: queryKeys.lists(plural) })
      setText('')
      onDone(answer.tools.length)
    },
  })
  const error = upload.error as ApiError | null
  const fieldErrors: FieldError[] = error?.errors ?? []

  return (
    <Form className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-3" onSubmit={() => upload.mutate()}>
      <p className="text-xs text-slate-600">
        For images without an <code className="font-mono">/a2a/tools</code> listener: upload the array the image would serve. It replaces the cached surface for
        the digest; nothing is stored if any entry is invalid.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Manifest file">
          <input
            type="file"
            accept=".json,application/json"
            className="text-xs file:mr-2 file:rounded file:border file:border-slate-300 file:bg-white file:px-2 file:py-1"
            onChange={async (e) => {
              const file = e.target.files?.[0]
              if (file) setText(await file.text())
            }}
          />
        </Field>
        <Field label={`Digest ${pinnedDigest ? '(optional)' : '(required: the image is not pinned)'}`} className="w-full min-w-0 sm:w-[28rem]">
          <TextInput monospace value={digest} onChange={(e) => setDigest(e.target.value)} placeholder={pinnedDigest ?? 'sha256:<64 hex digits>'} />
        </Field>
      </div>
      <TextArea
        code
        aria-label="Image tools manifest"
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={8}
        spellCheck={false}
        placeholder={'[\n  { "name": "myagent.do_thing", "description": "…", "inputSchema": { "type": "object" } }\n]'}
      />
      {error && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-medium">{error.message}</p>
          {fieldErrors.length > 0 && <FieldErrorsTable errors={fieldErrors} />}
        </div>
      )}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={!text.trim() || upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload manifest'}
        </Button>
        <Button variant="ghost" onClick={() => onDone()}>
          Cancel
        </Button>
      </div>
    </Form>
  )
}
