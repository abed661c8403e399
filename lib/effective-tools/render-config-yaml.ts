// The agent's runtime configuration, the `tools:` block of the language-operator seed: each
// referenced LanguageTool's endpoint, plus Toolroom's gateway through which every other tool is called.
import { stringify } from 'yaml'

export interface ConfigServer {
  name: string
  endpoint: string
}

export function renderConfigYaml(gatewayUrl: string, servers: ConfigServer[]): string {
  const tools: Record<string, { endpoint: string; protocol: 'mcp' }> = { toolroom: { endpoint: gatewayUrl, protocol: 'mcp' } }
  for (const server of servers) tools[server.name] = { endpoint: server.endpoint, protocol: 'mcp' }
  return stringify({ tools })
}
