// Every query key of the portal, so a mutation can invalidate everything it made stale.
import type { DiscoveryFilters, ListParams, Plural } from './api'
import type { AuditFilters } from './audit-api'
import type { CallFilters, StatsSubject } from './stats-api'

export const queryKeys = {
  all: ['toolroom'] as const,
  overview: () => [...queryKeys.all, 'overview'] as const,
  lists: (plural: Plural) => [...queryKeys.all, plural, 'list'] as const,
  list: (plural: Plural, params: ListParams) => [...queryKeys.lists(plural), params] as const,
  listAll: (plural: Plural, params: ListParams = {}) => [...queryKeys.lists(plural), 'all', params] as const,
  details: (plural: Plural) => [...queryKeys.all, plural, 'detail'] as const,
  detail: (plural: Plural, id: string, namespace?: string) => [...queryKeys.details(plural), id, namespace ?? null] as const,
  effectiveTools: (plural: 'agents' | 'units', id: string, namespace?: string) => [...queryKeys.detail(plural, id, namespace), 'effective-tools'] as const,
  imageTools: (plural: 'agents' | 'units', id: string, namespace?: string) => [...queryKeys.detail(plural, id, namespace), 'image-tools'] as const,
  configYaml: (id: string, namespace?: string) => [...queryKeys.detail('agents', id, namespace), 'config.yaml'] as const,
  /** What the explainer says of one call (it reads the registry, limits and keys: stale as soon as they change). */
  explain: (id: string, namespace: string | undefined, body: object) => [...queryKeys.detail('agents', id, namespace), 'explain', body] as const,
  agentsWithTool: (id: string, namespace: string | undefined, params: object) => [...queryKeys.detail('tools', id, namespace), 'agents', params] as const,
  /** Everything discovery: runs and surface changes, of every subject. */
  discovery: () => [...queryKeys.all, 'discovery'] as const,
  discoveryRuns: (filters: DiscoveryFilters) => [...queryKeys.discovery(), 'runs', filters] as const,
  surfaceChanges: (filters: DiscoveryFilters) => [...queryKeys.discovery(), 'changes', filters] as const,
  /** Everything approvals: the queue in every filter, its figures, webhooks. */
  approvals: () => [...queryKeys.all, 'approvals'] as const,
  approvalQueue: (filters: object) => [...queryKeys.approvals(), 'queue', filters] as const,
  approvalStats: () => [...queryKeys.approvals(), 'stats'] as const,
  pendingApprovalCount: () => [...queryKeys.approvals(), 'pending-count'] as const,
  webhooks: () => [...queryKeys.approvals(), 'webhooks'] as const,
  webhookDeliveries: (id: string) => [...queryKeys.webhooks(), id, 'deliveries'] as const,
  /** Statistics and recorded calls. */
  stats: () => [...queryKeys.all, 'stats'] as const,
  callStats: (subject: StatsSubject) => [...queryKeys.stats(), subject] as const,
  topFailingTools: (limit: number) => [...queryKeys.stats(), 'top-failing', limit] as const,
  toolFailures: (key: string) => [...queryKeys.stats(), 'tool-failures', key] as const,
  callsByPerson: (limit: number, issuer?: string) => [...queryKeys.stats(), 'by-person', limit, issuer ?? null] as const,
  /**
   * Everything agent credentials: one agent's (its page) and the list across agents (Access tokens).
   * Issuing or revoking on either page invalidates this root, so the other one is never stale.
   */
  agentCredentials: () => [...queryKeys.all, 'agent-credentials'] as const,
  agentCredentialsOf: (agentId: string, namespace?: string) => [...queryKeys.agentCredentials(), 'agent', agentId, namespace ?? null] as const,
  agentCredentialList: (filters: object) => [...queryKeys.agentCredentials(), 'list', filters] as const,
  calls: (filters: CallFilters & { limit: number }) => [...queryKeys.all, 'calls', filters] as const,
  audit: (filters: AuditFilters & { limit?: number }) => [...queryKeys.all, 'audit', filters] as const,
  /** People and API tokens (the People and Access tokens pages). */
  users: () => [...queryKeys.all, 'access', 'users'] as const,
  tokens: () => [...queryKeys.all, 'access', 'tokens'] as const,
  call: (id: string) => [...queryKeys.all, 'call', id] as const,
}
