export declare const TSX_NODE_ARGS: string[]
