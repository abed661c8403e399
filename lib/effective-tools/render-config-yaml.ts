// The agent's runtime configuration, the `tools:` block of the language-operator seed: Toolroom's
// gateway, through which every tool is called, and the MCP servers an operator marked for direct
// access, each under a comment saying that calls made there are not governed.
import { Document, isScalar } from 'yaml'

export const GATEWAY_ENTRY = 'toolroom'

export interface ConfigServer {
  /** The entry's name: the server's name, or namespace/name when that is taken. */
  name: string
  endpoint: string
}

const DIRECT_ACCESS_COMMENT =
  ' direct access (spec.directAccess): calls made here bypass Toolroom, with no\n approvals, rate limits, argument checks or call log'

export function renderConfigYaml(gatewayUrl: string, directServers: ConfigServer[]): string {
  const tools: Record<string, { endpoint: string; protocol: 'mcp' }> = { [GATEWAY_ENTRY]: { endpoint: gatewayUrl, protocol: 'mcp' } }
  for (const server of directServers) tools[server.name] = { endpoint: server.endpoint, protocol: 'mcp' }
  const doc = new Document({ tools })
  const entries = doc.get('tools') as { items: Array<{ key: unknown }> }
  for (const { key } of entries.items) if (isScalar(key) && key.value !== GATEWAY_ENTRY) key.commentBefore = DIRECT_ACCESS_COMMENT
  return doc.toString()
}
