// Types for the fuzzer's core (fuzz.mjs), for the e2e sample that imports it.
export const CASE_TAGS: Record<string, string>

export interface FuzzSetup {
  baseUrl: string
  agent: { id: string; name: string }
  tools: Record<string, unknown>
  ops: unknown[]
  safe: boolean
}

export interface FuzzFinding {
  defect: string
  case: number
  operation: string
  identity: 'admin' | 'agent' | 'anonymous'
  tags: string[]
  request: { method: string; path: string; contentType?: string; body?: string }
  response: { status: number; body: string } | null
}

export interface FuzzStats {
  seed: number
  requested: number
  sent: number
  byStatus: Record<string, number>
  serverErrors: number
  timeouts: number
  connectionErrors: number
  droppedConnections: number
  oracleFindings: number
  cutShort: boolean
  toolFailures: number
  byChannel: { rest: number; mcp: number }
  byIdentity: Record<string, number>
  byTag: Record<string, number>
  operations: number
  findings: FuzzFinding[]
  generatorErrors: string[]
  errorsByOperation: Record<string, number>
  seconds: number
}

export function prepareFuzz(options: { baseUrl: string; adminToken: string; agentName?: string; safe?: boolean }): Promise<FuzzSetup>
export function runFuzz(
  setup: FuzzSetup,
  options: { seed: number; count: number; seconds?: number; concurrency?: number; timeoutMs?: number; exclude?: Set<string>; maxFindings?: number },
): Promise<FuzzStats>
export function formatSummary(stats: FuzzStats, memory?: { before: Record<string, number>; after: Record<string, number> }): string
export function failuresOf(stats: FuzzStats): string[]
export function countStateRows(databaseUrl: string | undefined): Promise<Record<string, string[]> | null>
export function stateGrowth(before: Record<string, string[]> | null, after: Record<string, string[]> | null, legitimateOrigins?: string[]): string[]
