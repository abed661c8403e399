'use client'
// The Apply page's editor (CodeMirror 6, bundled with the portal): line numbers, YAML highlighting,
// every problem of the last validation marked at its line and column (kept in place as the text is
// edited), and completion of keys and values from the kinds' schemas (lib/client/manifest-completion.ts).
// Tab is left to the page, so the keyboard can leave the editor; Ctrl/Cmd+Enter validates.
import { autocompletion, closeBrackets, closeBracketsKeymap, type CompletionContext, type CompletionResult, completionKeymap } from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { yaml } from '@codemirror/lang-yaml'
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language'
import { lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint'
import { EditorSelection, EditorState } from '@codemirror/state'
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, placeholder } from '@codemirror/view'
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react'
import type { FieldError } from '@/lib/client/api'
import { completeManifest, type KindSchema } from '@/lib/client/manifest-completion'
import { diagnosticsOf, offsetOf } from '@/lib/client/manifest-diagnostics'

export interface ManifestEditorHandle {
  /** Puts the cursor at a line and column (1-based) and brings it into view. */
  goTo(line: number, column: number): void
}

interface Props {
  value: string
  onChange: (text: string) => void
  problems: readonly FieldError[]
  kinds: readonly KindSchema[]
  onValidate: () => void
  placeholderText?: string
}

const theme = EditorView.theme({
  '&': { fontSize: '12px', backgroundColor: '#fff', border: '1px solid #cbd5e1', borderRadius: '0.375rem' },
  '&.cm-focused': { outline: '2px solid #0f172a', outlineOffset: '1px' },
  '.cm-scroller': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    lineHeight: '1.6',
    minHeight: '18rem',
    maxHeight: '36rem',
    overflow: 'auto',
  },
  '.cm-gutters': { backgroundColor: '#f8fafc', color: '#64748b', borderRight: '1px solid #e2e8f0' },
  '.cm-activeLineGutter': { backgroundColor: '#e2e8f0', color: '#0f172a' },
  '.cm-activeLine': { backgroundColor: '#f1f5f9' },
  '.cm-placeholder': { color: '#475569' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: '#0f172a', color: '#fff' },
  '.cm-diagnostic-error': { borderLeftColor: '#b91c1c' },
})

export const ManifestEditor = forwardRef<ManifestEditorHandle, Props>(function ManifestEditor(
  { value, onChange, problems, kinds, onValidate, placeholderText },
  handle,
) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  // The editor is made once; what it calls back always reads the latest props.
  const latest = useRef({ onChange, onValidate, kinds })
  latest.current = { onChange, onValidate, kinds }

  useEffect(() => {
    const complete = (context: CompletionContext): CompletionResult | null => {
      const answer = completeManifest(context.state.doc.toString(), context.pos, latest.current.kinds)
      // Typing a space or a newline asks for nothing; Ctrl+Space asks for everything that fits.
      if (!answer || (!context.explicit && answer.from === context.pos)) return null
      return {
        from: answer.from,
        options: answer.items.map((i) => ({ label: i.label, apply: i.apply, type: i.type, detail: i.detail })),
        validFor: /^[\w.\-/]*$/,
      }
    }
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          yaml(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          lintGutter(),
          autocompletion({ override: [complete] }),
          placeholder(placeholderText ?? ''),
          keymap.of([
            { key: 'Mod-Enter', run: () => (latest.current.onValidate(), true) },
            ...closeBracketsKeymap,
            ...defaultKeymap,
            ...historyKeymap,
            ...completionKeymap,
            ...lintKeymap,
          ]),
          EditorView.contentAttributes.of({ 'aria-label': 'Manifest', spellcheck: 'false', autocapitalize: 'off', autocorrect: 'off' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString())
          }),
          theme,
        ],
      }),
    })
    view.current = editor
    return () => {
      editor.destroy()
      view.current = null
    }
    // Made once per mount: later values and problems reach it through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // Text set from outside (an upload, the example, a draft link) replaces what is in the editor.
  useEffect(() => {
    const editor = view.current
    if (editor && editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } })
  }, [value])

  useEffect(() => {
    const editor = view.current
    if (editor) editor.dispatch(setDiagnostics(editor.state, diagnosticsOf(editor.state.doc, problems)))
  }, [problems])

  useImperativeHandle(handle, () => ({
    goTo(line, column) {
      const editor = view.current
      if (!editor) return
      const at = offsetOf(editor.state.doc, line, column)
      editor.dispatch({ selection: EditorSelection.cursor(at), effects: EditorView.scrollIntoView(at, { y: 'center' }) })
      editor.focus()
    },
  }))

  return <div ref={host} data-testid="manifest-editor" className="manifest-editor min-w-0" />
})
