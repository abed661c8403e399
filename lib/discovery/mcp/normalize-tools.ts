// Tools as stored: the usable entries of a tools/list answer, and why the others were left out.
import type { DiscoveredMcpTool } from '@/lib/effective-tools/catalog-tools'
import type { McpToolAnnotations } from '@/lib/effective-tools/derive-side-effects'
import { nonLinearPatternProblems } from '@/lib/manifests/untrusted-ajv'
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
      refused.push({ name: typeof name === 'string' ? name : '', reason: `${position} has no name` })
      return
    }
    const earlier = byName.get(name)
    if (earlier !== undefined) {
      refused.push({ name, reason: `duplicate name: ${position} repeats entry ${earlier + 1}` })
      return
    }
    byName.set(name, index)
    const id = canonicalMcpToolId(CANONICAL_CHECK_PREFIX, name)
    if (!id) {
      refused.push({ name, reason: `no canonical tool id can be made of the name "${name}"` })
      return
    }
    const segment = id.slice(CANONICAL_CHECK_PREFIX.length + 1)
    const clash = byCanonical.get(segment)
    if (clash !== undefined) {
      refused.push({ name, reason: `its canonical name "${segment}" is already taken by the tool "${clash}"` })
      return
    }
    // A pattern the gateway could only run with a backtracking engine is never stored (it could freeze the gateway).
    const nonLinear = [
      ...nonLinearPatternProblems(entry.inputSchema).map((p) => `inputSchema ${p}`),
      ...nonLinearPatternProblems(entry.outputSchema).map((p) => `outputSchema ${p}`),
    ]
    if (nonLinear.length > 0) {
      refused.push({ name, reason: nonLinear.join('; ') })
      return
    }
    byCanonical.set(segment, name)
    const tool: DiscoveredMcpTool = { name }
    if (typeof entry.title === 'string') tool.title = entry.title
    if (typeof entry.description === 'string') tool.description = entry.description
    if (entry.inputSchema !== undefined) tool.inputSchema = entry.inputSchema
    if (entry.outputSchema !== undefined) tool.outputSchema = entry.outputSchema
    if (isObject(entry.annotations)) tool.annotations = entry.annotations as McpToolAnnotations
    tools.push(tool)
  })
  return { tools, refused }
}
