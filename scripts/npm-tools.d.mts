export function ensureNpmTool(name: string, version: string, cacheDir: string, log?: (message: string) => void): string
export function binOf(packageDir: string, bin: string): string
