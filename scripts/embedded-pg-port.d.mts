export function chooseEmbeddedPgPort(dataDir: string, configured: number | undefined, log?: (...args: unknown[]) => void): Promise<number>
