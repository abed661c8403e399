// Why a discovery run happened. The word travels in the discovery jobs' payloads (job-contracts.ts),
// so it is defined here, below discovery, which enqueues those jobs; discovery records it on each run,
// the API's schemas and the portal show it.

/** A new subject, a new image digest, a changed endpoint, a person's request, the sweep. */
export const DISCOVERY_TRIGGERS = ['created', 'rotation', 'changed', 'manual', 'periodic'] as const
export type DiscoveryTrigger = (typeof DISCOVERY_TRIGGERS)[number]
