// Tools as stored: the usable entries of a tools/list answer, and why the others were left out. An
// entry is stored only within the limits a Tool manifest keeps (docs/design/discovery.md#limits).
import type { DiscoveredMcpTool } from '@/lib/effective-tools/catalog-tools'
import type { McpToolAnnotations } from '@/lib/effective-tools/derive-side-effects'
import { MAX_UPSTREAM_TOOL_NAME_LENGTH, toolDefinitionProblems } from '@/lib/manifests/tool-definition-limits'
import { storableText } from '@/lib/storage/storable-text'
import { canonicalMcpToolId } from '@/lib/tools/naming'
import { isObject } from '@/lib/json/unknown-values'

/** Placeholder server name for checking that a tool name has a canonical form. */
const CANONICAL_CHECK_PREFIX = 'server'

/**
 * The usable entries of a tools/list answer, in server order, each kept as the server described it
 * (name, title, description, input and output schemas, annotations); the others with the reason.
 */
export function normalizeTools(raw: unknown[]): { tools: DiscoveredMcpTool[]; refused: Array<{ name: string; reason: string }> } {
  const tools: DiscoveredMcpTool[] = []
  const refused: Array<{ name: string; reason: string }> = []
  const byName = new Map<string, number>()
  const byCanonical = new Map<string, string>()
  raw.forEach((entry, index) => {
    const position = `entry ${index + 1} of tools/list`
    if (!isObject(entry)) {
      refused.push({ name: '', reason: `${position} is not an object` })
      return
    }
    const name = entry.name
    if (typeof name !== 'string' || name.trim() === '') {
      refused.push({ name: typeof name === 'string' ? storableText(name.slice(0, MAX_UPSTREAM_TOOL_NAME_LENGTH)) : '', reason: `${position} has no name` })
      return
    }
    // Refusals are stored and shown: a name is recorded within the length it may have.
    const shown = storableText(name.length > MAX_UPSTREAM_TOOL_NAME_LENGTH ? `${name.slice(0, MAX_UPSTREAM_TOOL_NAME_LENGTH)}…` : name)
    if (name.length > MAX_UPSTREAM_TOOL_NAME_LENGTH) {
      refused.push({ name: shown, reason: `${position} has a name of ${name.length} characters; a tool name is at most ${MAX_UPSTREAM_TOOL_NAME_LENGTH}` })
      return
    }
    const earlier = byName.get(name)
    if (earlier !== undefined) {
      refused.push({ name: shown, reason: `duplicate name: ${position} repeats entry ${earlier + 1}` })
      return
    }
    byName.set(name, index)
    const id = canonicalMcpToolId(CANONICAL_CHECK_PREFIX, name)
    if (!id) {
      refused.push({ name: shown, reason: `no canonical tool id can be made of the name "${shown}"` })
      return
    }
    const segment = id.slice(CANONICAL_CHECK_PREFIX.length + 1)
    const clash = byCanonical.get(segment)
    if (clash !== undefined) {
      refused.push({ name: shown, reason: `its canonical name "${segment}" is already taken by the tool "${clash}"` })
      return
    }
    const tool: DiscoveredMcpTool = { name }
    if (typeof entry.title === 'string') tool.title = entry.title
    if (typeof entry.description === 'string') tool.description = entry.description
    if (entry.inputSchema !== undefined) tool.inputSchema = entry.inputSchema
    if (entry.outputSchema !== undefined) tool.outputSchema = entry.outputSchema
    if (isObject(entry.annotations)) tool.annotations = entry.annotations as McpToolAnnotations
    // Beyond the limits, what is stored could overflow the gateway's stack, freeze it on a pattern or
    // cost seconds per compile; the object root MCP asks of inputSchema is the compliance report's.
    const problems = judged(tool as unknown as Record<string, unknown>)
    if (problems.length > 0) {
      refused.push({ name: shown, reason: problems.map((p) => `${p.field} ${p.message} (rule ${p.rule})`).join('; ') })
      return
    }
    byCanonical.set(segment, name)
    tools.push(tool)
  })
  return { tools, refused }
}

/** The entry's problems; a check that throws on it refuses that entry alone, never the server's run. */
function judged(entry: Record<string, unknown>): Array<{ field: string; rule: string; message: string }> {
  try {
    return toolDefinitionProblems(entry, { requireObjectRoot: false })
  } catch (e) {
    return [{ field: '(entry)', rule: 'limits', message: `could not be checked against the limits: ${String((e as Error)?.message).slice(0, 200)}` }]
  }
}
