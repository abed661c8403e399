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
  return {
    counts: { tools, languageTools, connectors, units, agents, secrets },
    toolsByLevel: byLevel.map((g) => ({ level: g.level ?? 'undeclared', count: g._count._all })),
    toolsByType: byType.map((g) => ({ type: g.type, count: g._count._all })),
    languageToolsByPhase: byPhase.map((g) => ({ phase: g.phase, count: g._count._all })),
    namespaces: namespaces.map((n) => n.namespace),
  }
}
