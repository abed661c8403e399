// Every API route's contract, in one list: the OpenAPI document is generated from it, and the
// access tests walk it, so a route cannot be added without being described and checked.
import type { RouteContract } from '@/lib/http/contract'
import { KINDS } from '@/lib/manifests/kinds'
import { APPROVAL_CONTRACTS } from './approval-routes'
import { AUDIT_CONTRACTS } from './audit-routes'
import { ACCESS_CONTRACTS } from './access-routes'
import { AGENT_CREDENTIAL_CONTRACTS } from './agent-credential-routes'
import { DEPLOYMENT_CONTRACTS } from './deployment-routes'
import { DISCOVERY_CONTRACTS } from './discovery-routes'
import { EXPLAIN_CONTRACTS } from './explain-routes'
import { agentConfigContract, FLEET_CONTRACTS } from './fleet-routes'
import { GATEWAY_CONTRACTS } from './gateway-routes'
import { MCP_REGISTRY_CONTRACTS } from './mcp-registry-routes'
import { OAUTH_CONTRACTS } from './oauth-routes'
import { POLICY_CONTRACTS } from './policy-routes'
import { applyContract, openApiContract, overviewContract } from './registry-routes'
import { resourceContracts } from './resource-routes'
import { SEARCH_CONTRACTS } from './search-routes'
import { SECRET_CONTRACTS } from './secret-routes'
import { STATS_CONTRACTS } from './stats-routes'
import { UPSTREAM_CONNECTION_CONTRACTS } from './upstream-connection-routes'
import { PERSON_CONNECTION_CONTRACTS } from './person-connection-routes'

export const ALL_CONTRACTS: RouteContract[] = [
  ...KINDS.flatMap((kind) => Object.values(resourceContracts(kind))),
  ...Object.values(FLEET_CONTRACTS.Agent),
  ...Object.values(FLEET_CONTRACTS.Unit),
  agentConfigContract,
  applyContract,
  overviewContract,
  openApiContract,
  ...Object.values(DISCOVERY_CONTRACTS),
  ...Object.values(APPROVAL_CONTRACTS),
  ...Object.values(AUDIT_CONTRACTS),
  ...Object.values(SECRET_CONTRACTS),
  ...Object.values(GATEWAY_CONTRACTS),
  ...Object.values(AGENT_CREDENTIAL_CONTRACTS),
  ...Object.values(STATS_CONTRACTS),
  ...Object.values(ACCESS_CONTRACTS),
  ...Object.values(OAUTH_CONTRACTS),
  ...Object.values(EXPLAIN_CONTRACTS),
  ...Object.values(POLICY_CONTRACTS),
  ...Object.values(SEARCH_CONTRACTS),
  ...Object.values(MCP_REGISTRY_CONTRACTS),
  ...Object.values(DEPLOYMENT_CONTRACTS),
  ...Object.values(UPSTREAM_CONNECTION_CONTRACTS),
  ...Object.values(PERSON_CONNECTION_CONTRACTS),
]
