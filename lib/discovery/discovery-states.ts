// The words discovery records its runs and changes with, in one place for the worker, the API's
// schemas and the portal (why a run happened travels in job payloads: lib/jobs/discovery-triggers.ts).
export const DISCOVERY_SUBJECT_KINDS = ['Agent', 'Unit', 'LanguageTool'] as const
export type DiscoverySubjectKind = (typeof DISCOVERY_SUBJECT_KINDS)[number]

export const DISCOVERY_RUN_STATUSES = ['running', 'succeeded', 'failed'] as const

/** A LanguageTool's phase: Pending until its first discovery, then how the last one went. */
export const LANGUAGE_TOOL_PHASES = ['Pending', 'Ready', 'Failed'] as const

/** applied: agents see it; pending_review: held by pinning until someone accepts or rejects it. */
export const SURFACE_CHANGE_STATUSES = ['applied', 'pending_review', 'accepted', 'rejected'] as const
