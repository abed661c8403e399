export function installedTool(name: string): string
export function binOf(packageDir: string, bin: string): string
