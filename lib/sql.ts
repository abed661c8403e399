// Typed SQL: the one Kysely instance, for what Prisma's model API cannot say (ON CONFLICT … WHERE,
// FOR UPDATE SKIP LOCKED, set-returning functions, aggregates over partitions). Its table types are
// generated from prisma/schema.prisma (lib/generated/kysely), so a renamed column fails the build.
// Queries run through the Prisma client, on its pg pool (lib/db.ts): no pool of their own, Prisma's
// value mapping (int8 → bigint, bytea → Uint8Array, json parsed), and inside a Prisma transaction
// through `sqlIn(tx)`. See docs/design/data-layer.md.
import 'server-only'
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type OperationNode,
  type QueryResult,
  sql,
} from 'kysely'
import { prisma } from '@/lib/db'
import type { DB as SchemaTables } from '@/lib/generated/kysely/types'

/**
 * Tables and functions that exist only in SQL migrations (prisma/migrations), not in schema.prisma,
 * declared here by hand: keep them in step with the migration that creates them.
 */
export interface SqlOnlyTables {
  /** pg-boss's job table (lib/jobs/boss.ts; created by pg-boss in its own schema). */
  'pgboss.job': { name: string; state: string; created_on: Date; start_after: Date }
}

export type Tables = SchemaTables & SqlOnlyTables

/** What the typed SQL needs of a Prisma client: the client itself, or the `tx` of `prisma.$transaction`. */
export type RawRunner = Pick<typeof prisma, '$queryRawUnsafe' | '$executeRawUnsafe'>

// A statement answers with rows when it is a SELECT, has RETURNING, or is raw `sql` (which may be
// either): those go through $queryRawUnsafe; the rest through $executeRawUnsafe, for the count.
function answersRows(node: OperationNode): boolean {
  if (node.kind === 'SelectQueryNode' || node.kind === 'RawNode') return true
  return 'returning' in node && node.returning !== undefined
}

class PrismaConnection implements DatabaseConnection {
  constructor(private readonly client: RawRunner) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const parameters = query.parameters as unknown[]
    if (answersRows(query.query)) return { rows: await this.client.$queryRawUnsafe<R[]>(query.sql, ...parameters) }
    const changed = await this.client.$executeRawUnsafe(query.sql, ...parameters)
    return { rows: [], numAffectedRows: BigInt(changed) }
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('typed SQL does not stream: page with LIMIT and a cursor instead')
  }
}

// Transactions are Prisma's, so typed SQL and model calls share one: open it with prisma.$transaction
// and query in it through sqlIn(tx).
const NO_OWN_TRANSACTIONS = 'typed SQL runs in Prisma transactions: use prisma.$transaction and sqlIn(tx)'

class PrismaDriver implements Driver {
  constructor(private readonly client: RawRunner) {}
  async init() {}
  async acquireConnection() {
    return new PrismaConnection(this.client)
  }
  async beginTransaction(): Promise<void> {
    throw new Error(NO_OWN_TRANSACTIONS)
  }
  async commitTransaction(): Promise<void> {
    throw new Error(NO_OWN_TRANSACTIONS)
  }
  async rollbackTransaction(): Promise<void> {
    throw new Error(NO_OWN_TRANSACTIONS)
  }
  async releaseConnection() {}
  async destroy() {}
}

function over(client: RawRunner): Kysely<Tables> {
  return new Kysely<Tables>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new PrismaDriver(client),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  })
}

/** Typed SQL on the process's Prisma client (outside any transaction). */
export const db: Kysely<Tables> = over(prisma)

/** Typed SQL inside a Prisma interactive transaction: `prisma.$transaction(async (tx) => sqlIn(tx).selectFrom(…))`. */
export function sqlIn(tx: RawRunner): Kysely<Tables> {
  return tx === prisma ? db : over(tx)
}

export { sql }

/**
 * Holds the transaction-scoped advisory lock named `name` until `tx` ends: serializes writers of
 * something no row lock covers (a row that may not exist yet, a whole table's rule).
 */
export async function lockForTransaction(tx: RawRunner, name: string): Promise<void> {
  // In FROM, so the statement answers a row Prisma can read (the function returns void).
  await sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext(${name}))`.execute(sqlIn(tx))
}
