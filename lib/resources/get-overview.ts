import 'server-only'
import { prisma } from '@/lib/db'
import { db, sql } from '@/lib/sql'

export async function getOverview() {
  const [tools, languageTools, connectors, units, agents, secrets, byLevel, byType, byPhase, namespaces] = await Promise.all([
    prisma.tool.count(),
    prisma.languageTool.count(),
    prisma.connector.count(),
    prisma.unit.count(),
    prisma.agent.count(),
    prisma.secret.count(),
    prisma.tool.groupBy({ by: ['level'], _count: { _all: true } }),
    prisma.tool.groupBy({ by: ['type'], _count: { _all: true } }),
    prisma.languageTool.groupBy({ by: ['phase'], _count: { _all: true } }),
    db
      .selectFrom('Tool')
      .select('namespace')
      .union(db.selectFrom('Agent').select('namespace'))
      .union(db.selectFrom('Unit').select('namespace'))
      .union(db.selectFrom('LanguageTool').select('namespace'))
      .union(db.selectFrom('Connector').select('namespace'))
      .orderBy('namespace')
      .execute(),
  ])
  const firstRun = await firstRunFacts()
  return {
    counts: { tools, languageTools, connectors, units, agents, secrets },
    toolsByLevel: byLevel.map((g) => ({ level: g.level ?? 'undeclared', count: g._count._all })),
    toolsByType: byType.map((g) => ({ type: g.type, count: g._count._all })),
    languageToolsByPhase: byPhase.map((g) => ({ phase: g.phase, count: g._count._all })),
    namespaces: namespaces.map((n) => n.namespace),
    firstRun,
  }
}

/**
 * The first-run checklist's facts (the dashboard's "Getting started"), each read from what is there,
 * never from what a person ticked: a server discovered, a Tool applied, an agent holding a usable
 * credential, a call recorded, and that call counted by the statistics the dashboard shows. Each is an
 * EXISTS, so a registry of any size answers at once.
 */
async function firstRunFacts() {
  const one = sql.lit(1).as('one')
  return db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('LanguageTool').select(one).where('phase', '=', 'Ready')).as('serverReady'),
      eb.exists(eb.selectFrom('Tool').select(one)).as('toolApplied'),
      eb
        .exists(
          eb
            .selectFrom('AgentCredential')
            .select(one)
            .where('revokedAt', 'is', null)
            .where((w) => w.or([w('expiresAt', 'is', null), w('expiresAt', '>', sql<Date>`now()`)])),
        )
        .as('agentCredential'),
      eb.exists(eb.selectFrom('ToolCall').select(one)).as('callMade'),
      eb.exists(eb.selectFrom('CallStat7d').select(one).where('dimension', '=', 'all').where('calls', '>', 0)).as('callCounted'),
    ])
    .executeTakeFirstOrThrow()
}
