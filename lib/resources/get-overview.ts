import 'server-only'
import { prisma } from '@/lib/db'

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
    prisma.$queryRaw<{ namespace: string }[]>`
      SELECT namespace FROM "Tool" UNION SELECT namespace FROM "Agent" UNION SELECT namespace FROM "Unit"
      UNION SELECT namespace FROM "LanguageTool" UNION SELECT namespace FROM "Connector" ORDER BY namespace`,
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
  const [row] = await prisma.$queryRaw<{ serverReady: boolean; toolApplied: boolean; agentCredential: boolean; callMade: boolean; callCounted: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "LanguageTool" WHERE phase = 'Ready') AS "serverReady",
           EXISTS (SELECT 1 FROM "Tool") AS "toolApplied",
           EXISTS (SELECT 1 FROM "AgentCredential" WHERE "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > now())) AS "agentCredential",
           EXISTS (SELECT 1 FROM "ToolCall") AS "callMade",
           EXISTS (SELECT 1 FROM "CallStat7d" WHERE dimension = 'all' AND calls > 0) AS "callCounted"`
  return row
}
