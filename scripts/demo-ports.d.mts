export const DEMO_MANIFEST_PORT: number
export const DEMO_PORT_SPAN: number
export function withDemoPorts(text: string, base: number): string
export function chooseDemoPorts(dataDir: string, wanted: number, log?: (...args: unknown[]) => void): Promise<number>
