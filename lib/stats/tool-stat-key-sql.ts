// The tool stat keys of tool-stat-key.ts, in SQL: kept apart from it because the portal's client code
// reads that module, and this one brings the query builder.
import 'server-only'
import { type Expression, type RawBuilder, sql } from 'kysely'

/** The same as toolResourceStatKey, in typed SQL over a Tool row's namespace and name. */
export const toolResourceStatKeySql = (namespace: Expression<string>, name: Expression<string>): RawBuilder<string> =>
  sql<string>`'Tool/' || ${namespace} || '/' || ${name}`

/** A ToolCall row's key in SQL, from its toolKey and toolId: rows without one count as unresolved. */
export const callToolStatKeySql = (toolKey: Expression<string | null>, toolId: Expression<string>): RawBuilder<string> =>
  sql<string>`coalesce(${toolKey}, 'Unresolved/' || ${toolId})`
