// A unit's statistics cover the calls of its own agents and of every unit below it, as an operator
// reading a team's figures expects: the rollup keys of the unit and all its descendants.
import 'server-only'
import { prisma } from '@/lib/db'

export async function unitStatKeys(namespace: string, name: string): Promise<string[]> {
  // UNION (not UNION ALL) also ends the walk if a parent cycle ever slipped into the registry.
  const rows = await prisma.$queryRaw<Array<{ name: string }>>`
    WITH RECURSIVE tree(name) AS (
      SELECT ${name}::text
      UNION
      SELECT u.name FROM "Unit" u JOIN tree t ON u.parent = t.name WHERE u.namespace = ${namespace}
    )
    SELECT name FROM tree`
  return rows.map((r) => `${namespace}/${r.name}`)
}
