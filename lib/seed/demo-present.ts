// Whether the demo may be seeded: its fleet only into a registry without any agent or tool, its
// people only into a database without any, so a real installation is never touched (the rule:
// demo-seed-rule.ts). Its own module, importing only the database client, so a start on a database
// that is no longer empty learns it without loading what seeding needs (scripts/steps/seed-demo.ts).
import 'server-only'
import { prisma } from '@/lib/db'
import { demoFleetRefusalFor, demoSkipReason } from './demo-seed-rule'

/** Why the demo fleet is not seeded into this database, or null when it may be. */
export async function demoFleetRefusal(): Promise<string | null> {
  const [agents, tools] = await Promise.all([prisma.agent.count(), prisma.tool.count()])
  return demoFleetRefusalFor(agents, tools)
}

/** Whether the database has people already (the demo's are then not created). */
export async function peoplePresent(): Promise<boolean> {
  return (await prisma.user.count()) > 0
}

/** Why nothing of the demo is seeded into this database (people and a fleet are there), or null. */
export async function demoSkipReasonNow(): Promise<string | null> {
  const [people, agents, tools] = await Promise.all([prisma.user.count(), prisma.agent.count(), prisma.tool.count()])
  return demoSkipReason({ people, agents, tools })
}
