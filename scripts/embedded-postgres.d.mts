type Options = { dataDir: string; port: number; database: string; log?: (line: string) => void }
export declare function startEmbeddedPostgres(options: Options): Promise<{ url: string; stop(): Promise<void> }>
export declare function startEmbeddedPostgresInOwnGroup(options: Options): Promise<{ url: string; stop(): Promise<void> }>
