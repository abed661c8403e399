// Types for the fuzzer's oracles (oracles.mjs), for the property tests.
export const INTERNAL_ERROR_CODE: string
export function jsonRpcMessages(body: string, contentType?: string): unknown[]
export function internalRpcError(error: unknown): string | null
export function internalErrorsInMcp(body: string, contentType?: string): string[]
export function internalErrorInRest(status: number, body: string): string | null
export function mayReach(identity: 'admin' | 'agent' | 'anonymous', access: string | undefined): boolean
export function accessViolation(identity: 'admin' | 'agent' | 'anonymous', access: string | undefined, status: number): string | null
export function secretForms(secret: string): string[]
export function leakedSecret(text: string, secrets: string[]): string | null
export function internalOrigin(text: string, publicOrigin: string, allowed?: string[]): string | null
export function overBudget(elapsedMs: number, timeoutMs: number, marginMs: number): string | null
export function crashText(text: string): string | null
export function originsOfHost(host: unknown): string[]
