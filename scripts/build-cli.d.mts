export declare function cliBuildIsStale(): boolean
export declare function buildCli(): Promise<void>
export declare function buildCliIfStale(): Promise<boolean>
