export declare function freePort(): Promise<number>
export declare function portIsFree(port: number): Promise<boolean>
