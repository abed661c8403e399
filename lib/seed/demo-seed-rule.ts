// When the demo is seeded, apart from the database client: npm start asks it before loading the Prisma
// client (scripts/steps/data-settled.ts), the seed steps through demo-present.ts.
import 'server-only'

/** What the database holds that the rule looks at. */
export interface DemoCounts {
  people: number
  agents: number
  tools: number
}

/** Why the demo fleet is not seeded into a registry with these agents and tools; null when it may be. */
export function demoFleetRefusalFor(agents: number, tools: number): string | null {
  return agents > 0 || tools > 0 ? `the database already has ${agents} agent(s) and ${tools} tool(s)` : null
}

/** Why a start seeds nothing of the demo (there are people, and a fleet); null when it may seed some of it. */
export function demoSkipReason(counts: DemoCounts): string | null {
  return counts.people > 0 ? demoFleetRefusalFor(counts.agents, counts.tools) : null
}

/** The line a start prints when it seeds nothing of the demo. */
export const demoSkippedLine = (reason: string) => `demo fleet: skipped (${reason})`
