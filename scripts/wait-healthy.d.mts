export declare function waitHealthy(url: string, options?: { everyMs?: number }): Promise<void>
