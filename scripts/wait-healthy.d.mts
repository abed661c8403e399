export declare function waitHealthy(url: string, options?: { everyMs?: number }): Promise<void>
export declare function askOnce(url: string): Promise<boolean>
