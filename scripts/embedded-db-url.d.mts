export declare const DEFAULT_EMBEDDED_PG_PORT: number
export declare const EMBEDDED_DATABASE_URL: string
