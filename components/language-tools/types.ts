import type { LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import type { ComplianceReport, Resource } from '@/lib/client/api'

export interface McpHints {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
}

export interface DiscoveredTool {
  name: string
  title?: string
  description?: string
  inputSchema?: unknown
  annotations?: McpHints
}

export interface LanguageToolStatus {
  phase?: string
  endpoint?: string
  health?: string | null
  lastIntrospectedAt?: string | null
  lastError?: string | null
  toolSchemas?: DiscoveredTool[]
  /** How the last successful discovery reached the server: streamable-http (2025-era), streamable-http-2026-07-28, sse or stateless-post. */
  detectedTransport?: string | null
  /** The LanguageTool checklist, item by item, from the last successful discovery. */
  compliance?: ComplianceReport | null
  /** What the server said it is in its initialize answer. */
  serverInfo?: { name?: string; version?: string } | null
}

export type LanguageTool = Resource<LanguageToolSpec, LanguageToolStatus>
