// A unit's statistics cover the calls of its own agents and of every unit below it, as an operator
// reading a team's figures expects: the rollup keys of the unit and all its descendants.
import 'server-only'
import { db, sql } from '@/lib/sql'

export async function unitStatKeys(namespace: string, name: string): Promise<string[]> {
  // UNION (not UNION ALL) also ends the walk if a parent cycle ever slipped into the registry.
  const rows = await db
    .withRecursive('tree(name)', (tree) =>
      tree
        .selectNoFrom(sql<string>`${name}::text`.as('name'))
        .union(tree.selectFrom('Unit as u').innerJoin('tree as t', 'u.parent', 't.name').select('u.name').where('u.namespace', '=', namespace)),
    )
    .selectFrom('tree')
    .select('name')
    .execute()
  return rows.map((r) => `${namespace}/${r.name}`)
}
