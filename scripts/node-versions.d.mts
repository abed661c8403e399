export const NODE_VERSIONS: string[]
export function ensureNode(version: string, cacheDir: string, log?: (message: string) => void): string
export function checkProcesses(node: string, env: Record<string, string>, options?: { timeoutMs?: number }): Promise<string | null>
