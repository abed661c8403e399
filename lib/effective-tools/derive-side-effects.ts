// Side-effect level and MCP-style annotations for every kind of tool, read conservatively (docs/design/effective-tools.md#side-effect-levels-and-approval):
// a tool that says nothing is not read-only, is destructive and is open-world.
import type { SideEffectLevel } from '@/lib/manifests/specs/common'
import type { LevelSource, ToolAnnotations } from './types'

/** Level assumed for a tool that declares none: the policy of external writes applies. */
export const UNDECLARED_LEVEL: SideEffectLevel = 'external_write'

const CLOSED_WORLD_LEVELS: ReadonlySet<SideEffectLevel> = new Set(['local_write'])

/** Annotations implied by a declared joch side-effect level. */
export function annotationsForLevel(level: SideEffectLevel | undefined, idempotent: boolean | undefined): ToolAnnotations {
  const readOnly = level === 'read_only'
  return {
    readOnly,
    destructive: !readOnly,
    idempotent: readOnly || (idempotent ?? false),
    openWorld: level === undefined || !CLOSED_WORLD_LEVELS.has(level),
  }
}

export interface McpToolAnnotations {
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
  title?: string
}

/** MCP hints with MCP's own defaults: only an explicit `readOnlyHint: true` makes a tool read-only. */
export function annotationsFromMcpHints(hints: McpToolAnnotations | undefined): ToolAnnotations {
  const readOnly = hints?.readOnlyHint === true
  return {
    readOnly,
    destructive: readOnly ? false : hints?.destructiveHint !== false,
    idempotent: readOnly || hints?.idempotentHint === true,
    openWorld: hints?.openWorldHint !== false,
  }
}

/** The level an MCP tool is governed by, derived from its annotations. */
export function levelFromAnnotations(a: ToolAnnotations, hints: McpToolAnnotations | undefined): { level: SideEffectLevel; levelSource: LevelSource } {
  const explicit = hints !== undefined && (hints.readOnlyHint !== undefined || hints.destructiveHint !== undefined || hints.openWorldHint !== undefined)
  if (a.readOnly) return { level: 'read_only', levelSource: 'annotations' }
  if (!a.openWorld) return { level: 'local_write', levelSource: 'annotations' }
  return { level: UNDECLARED_LEVEL, levelSource: explicit ? 'annotations' : 'default' }
}
