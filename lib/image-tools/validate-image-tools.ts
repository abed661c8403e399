// The rules an image's tool surface must keep (Spring Voyage seed): canonical ids, no duplicates, no
// reserved namespace, a usable input schema, and the limits of every tool definition
// (tool-definition-limits.ts). Each entry is judged on its own so that discovery can
// refuse bad entries one by one; an upload refuses the whole manifest if any entry is bad.
import type { FieldError } from '@/lib/errors/app-error'
import type { ImageToolDefinition } from '@/lib/effective-tools/catalog-tools'
import { checkToolJsonSchema } from '@/lib/manifests/json-schema'
import { toolDefinitionProblems } from '@/lib/manifests/tool-definition-limits'
import { isCanonicalToolId, reservedNamespaceOf } from '@/lib/tools/naming'

export const MAX_IMAGE_TOOLS = 2000

export interface ImageToolsVerdict {
  /** Accepted entries in declaration order. */
  tools: ImageToolDefinition[]
  /** One error per refused entry (or per broken rule of it). */
  errors: FieldError[]
}

export function validateImageTools(entries: unknown, connectorSlugs: ReadonlySet<string>): ImageToolsVerdict {
  if (!Array.isArray(entries)) return { tools: [], errors: [{ field: 'tools', rule: 'type', message: 'must be a JSON array of tool definitions' }] }
  if (entries.length > MAX_IMAGE_TOOLS)
    return { tools: [], errors: [{ field: 'tools', rule: 'max-length', message: `at most ${MAX_IMAGE_TOOLS} tools, got ${entries.length}` }] }
  const tools: ImageToolDefinition[] = []
  const errors: FieldError[] = []
  const seen = new Set<string>()
  entries.forEach((raw, i) => {
    const at = (field: string, rule: string, message: string) =>
      errors.push({
        field: `tools[${i}]${field}`,
        rule,
        message,
        ...(typeof (raw as { name?: unknown })?.name === 'string' ? { name: (raw as { name: string }).name } : {}),
      })
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return at('', 'type', 'must be an object with name, description and inputSchema')
    const entry = raw as Record<string, unknown>
    const before = errors.length
    for (const key of Object.keys(entry)) if (!['name', 'description', 'inputSchema'].includes(key)) at(`.${key}`, 'unknown-field', `unknown field "${key}"`)
    const name = entry.name
    if (typeof name !== 'string') at('.name', 'required', 'is required and must be a string')
    else if (!isCanonicalToolId(name))
      at('.name', 'canonical-id', `"${name.slice(0, 200)}" is not a canonical tool id (^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$)`)
    else {
      const reserved = reservedNamespaceOf(name, connectorSlugs)
      if (reserved)
        at(
          '.name',
          'reserved-namespace',
          reserved === 'toolroom' ? `"toolroom.*" is reserved for Toolroom's platform tools` : `"${reserved}.*" is reserved for connector "${reserved}"`,
        )
      else if (seen.has(name)) at('.name', 'duplicate', `"${name}" is declared more than once`)
    }
    if (typeof entry.description !== 'string') at('.description', 'required', 'is required and must be a string')
    if (entry.inputSchema === undefined)
      for (const problem of checkToolJsonSchema(entry.inputSchema, { requireObjectRoot: true }))
        at('.inputSchema', 'json-schema', `invalid JSON Schema: ${problem}`)
    for (const problem of toolDefinitionProblems(entry, { requireObjectRoot: true })) at(`.${problem.field}`, problem.rule, problem.message)
    if (errors.length === before) {
      seen.add(name as string)
      tools.push({ name: name as string, description: entry.description as string, inputSchema: entry.inputSchema })
    }
  })
  return { tools, errors }
}
