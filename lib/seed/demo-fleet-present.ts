// Whether the demo fleet may be seeded: only into a registry without any agent or tool, so a real
// installation is never touched. Its own module, importing only the database client, so a start on
// a database that is no longer empty learns it without loading what seeding needs (scripts/seed-demo.ts).
import 'server-only'
import { prisma } from '@/lib/db'

/** Why the demo fleet is not seeded into this database, or null when it may be. */
export async function demoFleetRefusal(): Promise<string | null> {
  const [agents, tools] = await Promise.all([prisma.agent.count(), prisma.tool.count()])
  return agents > 0 || tools > 0 ? `the database already has ${agents} agent(s) and ${tools} tool(s)` : null
}
