import type { ChildProcess } from 'node:child_process'

export declare function stopChild(child: ChildProcess, graceMs?: number): Promise<void>
