'use client'
// Forms as the portal builds them: submitted in the page, a small label above each control, and one
// look for every text box, select and text area, so the forms and the filter bars read alike.

/**
 * A form whose submit runs in the page (`onSubmit` gets the form: its data, its reset), never as a
 * navigation. It still says method=post: submitted before the page's script runs, the browser's own
 * submit would otherwise put what was typed (a password, a token) in the address, the history and
 * the logs. Forms decided by their buttons alone leave `onSubmit` out.
 */
export function Form({ onSubmit, ...form }: Omit<React.ComponentProps<'form'>, 'method' | 'onSubmit'> & { onSubmit?: (form: HTMLFormElement) => void }) {
  return (
    <form
      method="post"
      {...form}
      onSubmit={(e) => {
        e.preventDefault()
        onSubmit?.(e.currentTarget)
      }}
    />
  )
}

const BOX =
  'rounded-md border border-slate-300 bg-white font-normal text-slate-900 placeholder:text-slate-400 focus:border-slate-500 focus:outline-none disabled:border-slate-200 disabled:bg-slate-50 disabled:text-slate-500'

/** The look of a one-line control, for a `<select>` (text boxes are a `TextInput`). */
export const CONTROL = `h-8 px-2 text-sm ${BOX}`

/** A control under its label, which also names it for assistive technology. */
export function Field({ label, children, className = '' }: { label: React.ReactNode; children: React.ReactNode; className?: string }) {
  return (
    <label className={`flex flex-col gap-0.5 text-xs font-medium text-slate-600 ${className}`}>
      {label}
      {children}
    </label>
  )
}

/** `monospace`: for names, ids and keys, which are read character by character. */
export function TextInput({ monospace = false, className = '', ...input }: React.ComponentProps<'input'> & { monospace?: boolean }) {
  return <input className={`${CONTROL} ${monospace ? 'font-mono' : ''} ${className}`} {...input} />
}

/** `code`: for JSON and other text a machine reads, in a smaller monospace. */
export function TextArea({ code = false, className = '', ...area }: React.ComponentProps<'textarea'> & { code?: boolean }) {
  return <textarea className={`w-full p-2 ${BOX} ${code ? 'font-mono text-xs' : 'text-sm'} ${className}`} {...area} />
}

/**
 * A form's buttons, level with the inputs beside them: they sit under a label's height of space. For
 * forms whose fields line up at the top because one may grow below its input (a hint, a text area).
 */
export function FieldActions({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <span className="text-xs" aria-hidden>
        &nbsp;
      </span>
      <div className="flex flex-wrap gap-2">{children}</div>
    </div>
  )
}
