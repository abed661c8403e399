// The side-effect levels of tools, in order of risk: one list for the manifests' schemas, the API
// and the portal (a module of its own with no imports, so the portal's bundle takes only the list).
export const SIDE_EFFECT_LEVELS = ['read_only', 'local_write', 'external_write', 'financial', 'communication', 'code_execution', 'privileged'] as const

export type SideEffectLevel = (typeof SIDE_EFFECT_LEVELS)[number]
