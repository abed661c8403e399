// The limits every stored tool definition keeps, whoever wrote it: an operator's Tool manifest, an
// image's tools manifest (uploaded or read from /a2a/tools), an MCP server's tools/list
// (docs/design/discovery.md#limits). What a definition holds is stored, shown on pages, diffed,
// listed to agents and compiled by the gateway at every call: a description of megabytes, a schema
// 1,500 levels deep or a backtracking pattern would cost every one of those. Pure.
import type { FieldError } from '@/lib/errors/app-error'
import { isObject } from '@/lib/json/unknown-values'
import { STORABLE_TEXT_MESSAGE, STORABLE_TEXT_RULE, unstorableFields } from '@/lib/storage/storable-text'
import { checkToolJsonSchema, schemaLimitProblems } from './json-schema'

/** Longest description (and title) of a tool. */
export const MAX_DESCRIPTION_LENGTH = 4000
/** Longest name of a tool on its MCP server (what a Tool's `mcpServerRef.tool` may name). */
export const MAX_UPSTREAM_TOOL_NAME_LENGTH = 256

export type DefinitionProblem = Pick<FieldError, 'field' | 'rule' | 'message'>

/**
 * What breaks the limits in one tool definition: its title and description, its input and output
 * schemas (checkToolJsonSchema), its annotations (sized and nested like a schema) and text PostgreSQL
 * cannot hold anywhere in it. Fields are named as in the definition (`inputSchema`, `description`).
 */
export function toolDefinitionProblems(entry: Record<string, unknown>, { requireObjectRoot }: { requireObjectRoot: boolean }): DefinitionProblem[] {
  const problems: DefinitionProblem[] = []
  for (const field of ['title', 'description'])
    if (typeof entry[field] === 'string' && entry[field].length > MAX_DESCRIPTION_LENGTH)
      problems.push({ field, rule: 'max-length', message: `must be at most ${MAX_DESCRIPTION_LENGTH} characters, got ${entry[field].length}` })
  const schemas = [
    ['inputSchema', requireObjectRoot],
    ['outputSchema', false],
  ] as const
  for (const [field, objectRoot] of schemas)
    if (entry[field] !== undefined)
      for (const problem of checkToolJsonSchema(entry[field], { requireObjectRoot: objectRoot }))
        problems.push({ field, rule: 'json-schema', message: `invalid JSON Schema: ${problem}` })
  if (isObject(entry.annotations))
    for (const problem of schemaLimitProblems(entry.annotations)) problems.push({ field: 'annotations', rule: 'limits', message: problem })
  // Deeper than a schema may nest, the walk stops: those are refused above already.
  if (problems.length === 0)
    for (const found of unstorableFields(entry, [], 5)) {
      const key = found.startsWith('(key) ')
      problems.push({ field: key ? found.slice(6) : found, rule: STORABLE_TEXT_RULE, message: `${key ? 'its key ' : ''}${STORABLE_TEXT_MESSAGE}` })
    }
  return problems
}
