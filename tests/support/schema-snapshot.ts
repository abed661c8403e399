// What a database's public schema holds, as sorted lines that compare with a readable diff: for
// checking that two ways of building a schema (an upgrade and a fresh install; schema.prisma and the
// migrations) end in the same place. Partitions (the call log's days, docs/design/call-log.md) are
// data, not schema: their partitioned table stands for them.
import pg from 'pg'

export type SchemaPart = 'tables' | 'columns' | 'indexes' | 'keys' | 'checks' | 'enums' | 'triggers' | 'functions' | 'sequences'
export const EVERY_PART: readonly SchemaPart[] = ['tables', 'columns', 'indexes', 'keys', 'checks', 'enums', 'triggers', 'functions', 'sequences']

const QUERIES: Record<SchemaPart, string> = {
  tables: `SELECT 'table ' || c.relname AS line FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> ALL($1)`,
  columns: `SELECT format('column %s.%s %s%s%s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
      CASE WHEN a.attnotnull THEN ' not null' ELSE '' END, coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')) AS line
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped AND NOT c.relispartition AND c.relname <> ALL($1)`,
  indexes: `SELECT 'index ' || pg_get_indexdef(i.indexrelid) AS line FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public' AND NOT t.relispartition AND t.relname <> ALL($1)`,
  keys: `SELECT format('key %s.%s %s', t.relname, k.conname, pg_get_constraintdef(k.oid)) AS line FROM pg_constraint k
    JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND k.contype IN ('p', 'u', 'f') AND NOT t.relispartition AND t.relname <> ALL($1)`,
  checks: `SELECT format('check %s.%s %s', t.relname, k.conname, pg_get_constraintdef(k.oid)) AS line FROM pg_constraint k
    JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND k.contype IN ('c', 'x') AND NOT t.relispartition AND t.relname <> ALL($1)`,
  enums: `SELECT format('enum %s (%s)', t.typname, string_agg(e.enumlabel, ', ' ORDER BY e.enumsortorder)) AS line
    FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = 'public' AND $1::text[] IS NOT NULL GROUP BY t.typname`,
  triggers: `SELECT 'trigger ' || pg_get_triggerdef(g.oid) AS line FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public' AND NOT g.tgisinternal AND NOT t.relispartition AND t.relname <> ALL($1)`,
  functions: `SELECT 'function ' || pg_get_functiondef(p.oid) AS line FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' AND $1::text[] IS NOT NULL`,
  sequences: `SELECT 'sequence ' || c.relname AS line FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'S' AND $1::text[] IS NOT NULL`,
}

/** The lines of `parts` of the public schema at `url`, leaving out the tables named in `except`. */
export async function schemaSnapshot(url: string, { parts = EVERY_PART, except = [] as string[] } = {}): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const lines: string[] = []
    for (const part of parts) {
      const { rows } = await client.query<{ line: string }>(QUERIES[part], [except])
      // A partitioned table's index reads `ON ONLY`: the same index as a plain table's.
      lines.push(...rows.map((row) => row.line.replace(/ ON ONLY /, ' ON ')))
    }
    return lines.sort()
  } finally {
    await client.end()
  }
}
