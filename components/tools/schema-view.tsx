'use client'
import { useState } from 'react'
import { CodeBlock } from '@/components/ui/code-block'

interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  description?: string
  enum?: unknown[]
  items?: JsonSchema
  format?: string
  default?: unknown
}

function typeOf(schema: JsonSchema): string {
  const t = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any')
  if (t === 'array' && schema.items) return `${typeOf(schema.items)}[]`
  return schema.format ? `${t} (${schema.format})` : t
}

/** A JSON Schema as a table of its top-level properties, with the raw document one click away. */
export function SchemaView({ schema, emptyLabel = 'No schema' }: { schema: unknown; emptyLabel?: string }) {
  const [raw, setRaw] = useState(false)
  if (!schema || typeof schema !== 'object') return <p className="text-sm text-slate-500">{emptyLabel}</p>
  const s = schema as JsonSchema
  const props = Object.entries(s.properties ?? {})
  const required = new Set(s.required ?? [])
  return (
    <div className="space-y-2">
      {props.length === 0 ? (
        <p className="text-sm text-slate-500">{typeOf(s) === 'object' ? 'Takes no declared arguments.' : `Type: ${typeOf(s)}`}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-slate-500">
            <tr>
              <th className="py-1 pr-3 font-medium">Property</th>
              <th className="py-1 pr-3 font-medium">Type</th>
              <th className="py-1 font-medium">Notes</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {props.map(([name, p]) => (
              <tr key={name} className="align-top">
                <td className="py-1 pr-3 font-mono text-xs text-slate-900">
                  {name}
                  {required.has(name) && (
                    <span className="ml-1 text-red-600" title="required">
                      *
                    </span>
                  )}
                </td>
                <td className="py-1 pr-3 font-mono text-xs text-slate-600">{typeOf(p)}</td>
                <td className="py-1 text-xs text-slate-600">
                  {p.description}
                  {p.enum && <span className="font-mono"> one of {p.enum.map((v) => JSON.stringify(v)).join(', ')}</span>}
                  {p.default !== undefined && <span className="font-mono"> default {JSON.stringify(p.default)}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" onClick={() => setRaw(!raw)} className="text-xs font-medium text-slate-500 hover:text-slate-900 hover:underline">
        {raw ? 'Hide JSON' : 'Show JSON'}
      </button>
      {raw && <CodeBlock code={JSON.stringify(schema, null, 2)} title="JSON Schema" maxHeight="20rem" />}
    </div>
  )
}
