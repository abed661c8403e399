import type { LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import type { Resource } from '@/lib/client/api'

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
}

export type LanguageTool = Resource<LanguageToolSpec, LanguageToolStatus>
