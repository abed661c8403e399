// Whether the demo may be seeded: its fleet only into a registry without any agent or tool, its
// people only into a database without any, so a real installation is never touched. Its own module, importing only the database client, so a start on
// a database that is no longer empty learns it without loading what seeding needs (scripts/seed-demo.ts).
import 'server-only'
import { prisma } from '@/lib/db'

/** Why the demo fleet is not seeded into this database, or null when it may be. */
export async function demoFleetRefusal(): Promise<string | null> {
  const [agents, tools] = await Promise.all([prisma.agent.count(), prisma.tool.count()])
  return agents > 0 || tools > 0 ? `the database already has ${agents} agent(s) and ${tools} tool(s)` : null
}

/** Whether the database has people already (the demo's are then not created). */
export async function peoplePresent(): Promise<boolean> {
  return (await prisma.user.count()) > 0
}
