// Types for the fuzzer's scenario families (families.mjs), for the integration test that runs them.
export const FAMILIES: string[]
export const NAMESPACE: string
export const DRIP_TIMEOUT_MS: number

export interface FamilyWorld {
  baseUrl: string
  adminToken: string
  upstreamUrl: string
  agentToken: string
  secret: string
  discovered: boolean
  deepServerId: string
}

export interface FamilyReport {
  cases: number
  findings: { case: unknown; defect: string; status?: number; body?: string }[]
  notes?: string[]
}

export function deepSchemaText(levels: number): string
export function startHostileUpstreams(): Promise<{ url: string; close(): Promise<void> }>
export function hostileManifest(upstreamUrl: string, secret: string): string
export function discoverViaApi(baseUrl: string, adminToken: string, ms?: number): (id: string) => Promise<boolean>
export function prepareFamilies(options: {
  baseUrl: string
  adminToken: string
  upstreamUrl: string
  secret: string
  discover?: (languageToolId: string) => Promise<unknown>
}): Promise<FamilyWorld>
export function runFamilies(
  world: FamilyWorld,
  options?: { seed: number; count?: number; databaseUrl?: string; only?: string[] },
): Promise<Record<string, FamilyReport>>
export function familyFindings(report: Record<string, FamilyReport>): ({ family: string } & FamilyReport['findings'][number])[]
export function formatFamilies(report: Record<string, FamilyReport>): string
