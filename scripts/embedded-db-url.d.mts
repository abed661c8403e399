export declare const DEFAULT_EMBEDDED_PG_PORT: number
export declare const EMBEDDED_PG_PORT_FILE: string
export declare function rememberedEmbeddedPgPort(dataDir: string): number | undefined
export declare function embeddedDatabaseUrl(chosen?: number): string
