// What the OpenAPI document says about each operation beyond its summary: a description and an
// example (of the request body, the answer, or a parameter). Kept apart from the route contracts so
// the contracts stay one line of intent each; the OpenAPI test fails for an operation left out here.
import { isAdminOnlyKind } from '@/lib/auth/admin-only-kinds'
import { type Kind, KINDS } from '@/lib/manifests/kinds'
import { EXAMPLE_EFFECTIVE_TOOL, EXAMPLE_MANIFESTS, exampleResource } from './examples'

export interface OperationDoc {
  description: string
  /** The request body (JSON). */
  request?: unknown
  /** The success answer. */
  response?: unknown
  /** Path or query parameters, by name. */
  parameters?: Record<string, unknown>
}

const ID = '0f8c2d6e-3b1a-4c5d-9e7f-1a2b3c4d5e6f'
const AT = '2026-11-24T09:30:00.000Z'

const STAT_POINT = { calls: 1284, failures: 17, refused: 9, failureRate: 0.0132, p50Ms: 182, p95Ms: 911, avgMs: 264 }
const callStats = (dimension: string, key: string) => ({
  dimension,
  key,
  window: { from: '2026-11-18T00:00:00.000Z', to: '2026-11-25T00:00:00.000Z' },
  totals: STAT_POINT,
  byDay: [{ day: '2026-11-24', ...STAT_POINT }],
  byHour: [{ hour: '2026-11-24T09:00:00.000Z', ...STAT_POINT }],
})

const REGISTRY_SERVER = {
  server: {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: 'dev.toolroom.support/github',
    description: 'GitHub issues and pull requests for the support team',
    title: 'github',
    version: '1.4.2',
    remotes: [
      {
        type: 'streamable-http',
        url: 'https://toolroom.example.com/mcp',
        headers: [
          {
            name: 'Authorization',
            description: "Bearer and an agent credential of Toolroom (tra_…): the gateway serves the agent's tools, this server's named github.*",
            isRequired: true,
            isSecret: true,
          },
        ],
      },
    ],
  },
  _meta: {
    'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: AT, updatedAt: AT, isLatest: true },
    'dev.toolroom/registry': {
      namespace: 'support',
      name: 'github',
      phase: 'Ready',
      gateway: 'https://toolroom.example.com/mcp',
      surface: { revision: 3, digest: 'sha256:9f2c4e1a7b3d5f6e8a0c2b4d6f8e0a1c3e5b7d9f1a3c5e7b9d0f2a4c6e8b0d1f', changedAt: AT },
      tools: [
        { name: 'github.search_issues', upstreamName: 'search_issues', description: 'Search issues', level: 'read_only', levelSource: 'annotations' },
        { name: 'github.create_issue', upstreamName: 'create_issue', description: 'Open an issue', level: 'external_write', levelSource: 'default' },
      ],
    },
  },
}

const OAUTH_CLIENT = {
  clientId: 'tcl_8f2a6c1e9b3d4f7a',
  name: 'Claude Desktop (support)',
  kind: 'authorization_code' as const,
  registration: 'admin' as const,
  registeredBy: 'admin@toolroom.local',
  agent: { id: ID, namespace: 'support', name: 'support-escalation' },
  redirectUris: ['http://127.0.0.1:33418/callback'],
  tokenEndpointAuthMethod: 'none',
  disabled: false,
  createdAt: AT,
  activeTokens: 1,
}

const PROTECTED_RESOURCE_METADATA = {
  resource: 'https://toolroom.example.com/mcp',
  authorization_servers: ['https://toolroom.example.com/api/auth'],
  scopes_supported: ['mcp'],
  bearer_methods_supported: ['header'],
  resource_name: 'Toolroom MCP gateway',
}
const AUTHORIZATION_SERVER_METADATA = {
  issuer: 'https://toolroom.example.com/api/auth',
  authorization_endpoint: 'https://toolroom.example.com/api/auth/oauth2/authorize',
  token_endpoint: 'https://toolroom.example.com/api/auth/oauth2/token',
  code_challenge_methods_supported: ['S256'],
}

const CALL = {
  id: '7d1e5b3a-2c4f-4e6a-8b9c-0d1e2f3a4b5c',
  startedAt: AT,
  finishedAt: '2026-11-24T09:30:00.412Z',
  agentId: ID,
  agentNamespace: 'support',
  agentName: 'support-escalation',
  unit: 'support/support-escalations',
  toolId: 'zendesk.create_ticket',
  toolNamespace: 'zendesk',
  toolKey: 'Tool/support-platform/zendesk.create_ticket',
  provenance: 'grant',
  level: 'external_write',
  channel: 'mcp',
  outcome: 'succeeded',
  errorCode: null,
  errorMessage: null,
  upstreamExcerpt: null,
  latencyMs: 412,
  attempts: 1,
  idempotencyKey: 'zendesk-3f9a1c',
  requestId: 'b2c4d6e8-1a3b-4c5d-8e9f-0a1b2c3d4e5f',
  onBehalfOf: null,
}

const APPROVAL = {
  id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
  callId: CALL.id,
  status: 'pending',
  agent: { id: ID, namespace: 'support', name: 'support-escalation', unit: 'support-escalations' },
  tool: {
    id: 'stripe.create_refund',
    namespace: 'stripe',
    level: 'financial',
    description: "Refund all or part of a Stripe charge to the customer's original payment method.",
  },
  args: { charge: 'ch_3PqX9a', amount: 4200, reason: 'requested_by_customer', ticketId: 8812 },
  summaryLine: 'Refund $42.00 of charge ch_3PqX9a (requested_by_customer)',
  summarySource: 'template',
  summary: [
    { field: 'amount', label: 'Amount', value: '$42.00' },
    { field: 'charge', value: 'ch_3PqX9a' },
    { field: 'ticketId', label: 'Ticket', value: '8812', href: 'https://northwind.zendesk.com/agent/tickets/8812' },
  ],
  policyRules: [],
  highRisk: true,
  idempotencyKey: 'refund-ch_3PqX9a-4200',
  policy: { source: 'tool', level: 'financial' },
  onBehalfOf: { issuer: 'https://login.example.com', subject: 'jane', displayName: 'Jane Doe' },
  onBehalfOfUntil: '2026-11-24T10:40:00.000Z',
  rateLimit: null,
  requestedAt: AT,
  expiresAt: '2026-11-24T13:30:00.000Z',
  secondsLeft: 13780,
  decision: null,
  execution: null,
}

const WEBHOOK = {
  id: ID,
  name: 'approvals-slack',
  url: 'https://hooks.example.com/toolroom',
  events: ['approval.requested', 'approval.decided'],
  enabled: true,
  createdAt: AT,
  updatedAt: AT,
}
const CREDENTIAL = {
  id: ID,
  agentId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
  name: 'prod',
  hint: 'tra_Q3x9',
  createdBy: 'admin@toolroom.local',
  createdAt: AT,
  lastUsedAt: null,
  expiresAt: '2027-02-22T09:30:00.000Z',
  revokedAt: null,
  state: 'active',
}
const TOKEN = {
  id: ID,
  name: 'ci',
  hint: 'trk_8Hq2',
  scopes: ['read', 'write'],
  owner: 'operator@toolroom.local',
  origin: 'user',
  createdAt: AT,
  expiresAt: '2027-02-22T09:30:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  status: 'active',
}
const USER = { id: ID, email: 'operator@toolroom.local', name: 'Olu Operator', role: 'operator', disabled: false, createdAt: AT, signIn: ['password'] }
const SUBJECT_ID = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e'
const RUN = {
  id: ID,
  subjectKind: 'LanguageTool',
  subjectId: SUBJECT_ID,
  namespace: 'platform',
  name: 'github',
  trigger: 'periodic',
  status: 'succeeded',
  attempt: 1,
  digest: null,
  toolCount: 26,
  error: null,
  details: { endpoint: 'http://github-mcp.platform.svc.cluster.local:8080/mcp', timings: { listMs: 184 } },
  startedAt: AT,
  finishedAt: '2026-11-24T09:30:01.210Z',
}
const ISSUE_TOOL = {
  name: 'create_issue',
  description: 'Open an issue in a repository.',
  inputSchema: { type: 'object', required: ['repo', 'title'], properties: { repo: { type: 'string' }, title: { type: 'string' } } },
}
const CHANGE = {
  id: ID,
  subjectKind: 'LanguageTool',
  subjectId: SUBJECT_ID,
  namespace: 'platform',
  name: 'github',
  runId: RUN.id,
  diff: {
    added: [],
    removed: [],
    changed: [
      {
        name: 'create_issue',
        fields: ['inputSchema'],
        before: { ...ISSUE_TOOL, inputSchema: { type: 'object', required: ['repo'], properties: { repo: { type: 'string' }, title: { type: 'string' } } } },
        after: ISSUE_TOOL,
      },
    ],
    reordered: false,
  },
  status: 'pending_review',
  proposed: [ISSUE_TOOL],
  decidedBy: null,
  decidedAt: null,
  comment: null,
  detectedAt: AT,
}
const AUDIT_EVENT = {
  id: '10482',
  at: AT,
  actor: { kind: 'token', id: ID, name: 'ci' },
  action: 'resource.updated',
  kind: 'Unit',
  namespace: 'finance',
  resource: 'payables',
  resourceId: ID,
  before: { apiVersion: 'toolroom.dev/v1alpha1', kind: 'Unit', metadata: { name: 'payables', namespace: 'finance' }, spec: { parent: 'finance' } },
  after: {
    apiVersion: 'toolroom.dev/v1alpha1',
    kind: 'Unit',
    metadata: { name: 'payables', namespace: 'finance' },
    spec: { parent: 'finance', grants: ['erp.schedule_payment'] },
  },
  detail: { via: 'apply' },
  requestId: 'b2c4d6e8-1a3b-4c5d-8e9f-0a1b2c3d4e5f',
}

const APPLY_RESULT = {
  dryRun: true,
  results: [
    {
      index: 0,
      kind: 'Unit',
      apiVersion: 'toolroom.dev/v1alpha1',
      namespace: 'support',
      name: 'support-escalations',
      id: ID,
      action: 'updated',
      changes: [{ path: 'spec.grants[3]', after: 'finance/stripe.create_refund' }],
    },
    {
      index: null,
      kind: 'Tool',
      apiVersion: 'toolroom.dev/v1alpha1',
      namespace: 'support',
      name: 'support.legacy_lookup',
      id: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
      action: 'deleted',
      changes: [],
    },
  ],
  summary: { created: 0, updated: 1, unchanged: 0, deleted: 1 },
  impact: {
    agentsChecked: 14,
    agentsResolved: 1,
    agentsAffected: 1,
    agents: [
      {
        id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
        namespace: 'support',
        name: 'support-escalation',
        changes: [
          {
            tool: 'stripe.create_refund',
            change: 'gained',
            after: { state: 'enabled', requiresApproval: true, tier: 'grant', source: 'grant' },
            reason: 'gains it from grant (inherited from unit "support-escalations"): enabled, its calls wait for approval',
          },
        ],
      },
    ],
    truncated: false,
  },
}

const IMAGE_TOOLS = {
  digest: 'sha256:4a5c2bd84e1a0b3c2d7f1e9a8b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c',
  source: 'upload',
  updatedAt: AT,
  tools: [
    {
      name: 'finance.parse_remittance',
      description: 'Reads a remittance advice PDF into lines.',
      inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    },
  ],
}

function resourceDocs(kind: Kind): Record<string, OperationDoc> {
  const manifest = EXAMPLE_MANIFESTS[kind]
  const { apiVersion: _apiVersion, kind: _kind, ...body } = manifest
  const resource = exampleResource(kind)
  const adminOnly = isAdminOnlyKind(kind) ? ' Admins only (rule `admin-only-kind`).' : ''
  const withSet = kind === 'Agent' || kind === 'Unit'
  const secretNote = kind === 'Secret' ? ' Values are sealed and never returned: answers show the type and key names.' : ''
  return {
    [`list${kind}s`]: {
      description: `${kind} resources by namespace and name, a page at a time (pass \`nextCursor\` as \`cursor\`). Filter with \`namespace\`, \`q\` and a Kubernetes label selector (\`labelSelector=team=payments,tier in (gold,silver)\`). Send \`Accept: application/yaml\` for the same page as YAML; either form applies again unchanged.${secretNote}`,
      response: { items: [resource], nextCursor: null },
      parameters: { labelSelector: 'northwind.example/department=finance' },
    },
    [`create${kind}`]: {
      description: `Creates a ${kind} from a manifest document (apiVersion and kind may be left out), validated as Apply validates it; 409 if it exists.${adminOnly}${secretNote}`,
      request: body,
      response: resource,
    },
    [`get${kind}`]: {
      description: `One ${kind} by id, or by name with \`?namespace=\` (default \`default\`${kind === 'Connector' ? '; connectors by slug in any namespace' : ''}).${withSet ? ' Includes its effective tool set and unresolved references.' : ''} Send \`Accept: application/yaml\` for YAML; the answer applies again unchanged (the fields the server sets are ignored on input).${secretNote}`,
      response: withSet ? { ...resource, effectiveTools: [EXAMPLE_EFFECTIVE_TOOL], unresolved: [] } : resource,
      parameters: { id: manifest.metadata.name, namespace: manifest.metadata.namespace },
    },
    [`replace${kind}`]: {
      description: `Replaces the ${kind}'s labels, annotations and spec; its name and namespace stay. An unchanged document changes nothing; a change raises the generation and is audited.${adminOnly}`,
      request: body,
      response: { ...resource, metadata: { ...resource.metadata, generation: 4 } },
      parameters: { id: manifest.metadata.name },
    },
    [`delete${kind}`]: {
      description: `Deletes the ${kind} (audited with the document it had). Whatever referred to it shows the reference as unresolved.${adminOnly}`,
      parameters: { id: ID, namespace: manifest.metadata.namespace },
    },
  }
}

const fleetDocs = (kind: 'Agent' | 'Unit'): Record<string, OperationDoc> => {
  const name = EXAMPLE_MANIFESTS[kind].metadata.name
  const lower = kind.toLowerCase()
  return {
    [`get${kind}EffectiveTools`]: {
      description: `The ${lower}'s effective tool set: platform, connector, image, MCP server and granted tools with provenance, state, approval and limits, in listing order. \`?include=excluded\` adds the shadowed and denied entries, each with its reason.`,
      response: { effectiveTools: [EXAMPLE_EFFECTIVE_TOOL], excluded: [], unresolved: [] },
      parameters: { id: name, include: 'excluded' },
    },
    [`get${kind}ImageTools`]: {
      description: `The tools the ${lower}'s image declares, as discovery or an upload last stored them, with the image digest they belong to.`,
      response: IMAGE_TOOLS,
      parameters: { id: name },
    },
    [`put${kind}ImageTools`]: {
      description: `Stores the image's tools manifest (the \`GET /a2a/tools\` array) for a ${lower} whose listener discovery cannot reach. Entries are validated like discovered ones; refused entries are named.`,
      request: { digest: IMAGE_TOOLS.digest, tools: IMAGE_TOOLS.tools },
      response: IMAGE_TOOLS,
    },
    [`refresh${kind}`]: {
      description: `Queues a discovery run of the ${lower}'s image now (202); the run is listed under /api/v1/discovery/runs when it starts.`,
      response: { queued: true, subject: { kind, id: ID, name, namespace: EXAMPLE_MANIFESTS[kind].metadata.namespace } },
      parameters: { id: name },
    },
  }
}

const DOCS: Record<string, OperationDoc> = {
  ...Object.assign({}, ...KINDS.map(resourceDocs)),
  ...fleetDocs('Agent'),
  ...fleetDocs('Unit'),
  exportCalls: {
    description:
      'Every recorded call that started in [since, until), oldest first, as NDJSON (one ToolCallDetail per line), streamed page by page so a month of calls needs no memory: each record exactly as stored, so as redacted as the call log itself. `toolroom calls export --since …` writes the same. For a log store or SIEM, before the days pass `TOOLROOM_CALL_RETENTION_DAYS` and their partitions are dropped.',
    response: '{"id":"7d1e5b3a-2c4f-4e6a-8b9c-0d1e2f3a4b5c","toolId":"zendesk.create_ticket","outcome":"succeeded","startedAt":"2026-11-24T09:30:00.000Z"}\n',
    parameters: { since: '2026-11-20T00:00:00Z', until: '2026-11-27T00:00:00Z' },
  },
  getAgentConfigYaml: {
    description:
      "The agent's runtime `tools:` block: Toolroom's gateway endpoint, and MCP servers marked for direct access (each under a comment that calls there bypass Toolroom). The agent may fetch its own with its gateway credential.",
    response: 'tools:\n  toolroom:\n    endpoint: https://toolroom.example.com/mcp\n',
    parameters: { id: 'ap-clerk', namespace: 'finance' },
  },
  getLanguageToolConnection: {
    description:
      "For a LanguageTool with `auth.oauth2.grantType: authorization_code`: whether an operator has connected it (`not_connected`, `connected`, `reconnect` when the authorization server refused the refresh token or the server's configuration changed), the authorization server, the scopes it granted, who connected it when and the last refresh. Never a token.",
    response: {
      state: 'connected',
      message: null,
      authorizationServer: 'https://auth.github.example.com',
      scopes: ['repo.read'],
      connectedAt: '2026-11-27T12:30:00.000Z',
      connectedBy: 'jane@example.com',
      refreshedAt: '2026-11-27T14:20:00.000Z',
      expiresAt: '2026-11-27T15:20:00.000Z',
    },
    parameters: { id: 'github', namespace: 'platform' },
  },
  connectLanguageTool: {
    description:
      "Reads the server's protected-resource metadata (its `resource` must be the server's URL) and its authorization server's metadata (https only), registers Toolroom as a client unless `clientId` is configured, and answers the authorization URL (PKCE, resource indicator). Open it in the operator's browser within 10 minutes; the authorization server sends the browser back to the callback. Metadata that is refused is a 422 naming the field and rule.",
    response: {
      authorizationUrl: 'https://auth.github.example.com/authorize?response_type=code&client_id=…&code_challenge=…&code_challenge_method=S256&state=…',
      expiresAt: '2026-11-27T14:40:00.000Z',
    },
    parameters: { id: 'github', namespace: 'platform' },
  },
  disconnectLanguageTool: {
    description: 'Deletes the connection\'s tokens. Discovery and calls then fail with "needs connecting" until an operator connects it again. Audited.',
    parameters: { id: 'github', namespace: 'platform' },
  },
  finishLanguageToolConnection: {
    description:
      'The redirect URI Toolroom registers (`{public origin}/api/v1/upstream-connections/callback`). The state must be pending, unexpired and started by the caller (403 otherwise, and it stays for its owner); it is spent before the code is exchanged (400 when replayed). An `iss` other than the authorization server is refused (RFC 9207). Discovery of the server is queued.',
    parameters: { state: 'mJ1n…', code: 'x7Qp…' },
  },
  listMyConnections: {
    description:
      "The signed-in person's Connections page as data: every LanguageTool with `auth.oauth2.connect: perPerson` (calls made for a person use that person's own account on it) and where the person's own connection stands (`not_connected`, `connected`, `reconnect` when the authorization server refused their refresh token or the server's configuration changed), the authorization server, the scopes granted and when. Any signed-in person, for themselves only; a credential that is nobody's is refused (403). Never a token.",
    response: {
      items: [
        {
          namespace: 'platform',
          name: 'github',
          description: 'GitHub as each person',
          state: 'connected',
          message: null,
          authorizationServer: 'https://auth.github.example.com',
          scopes: ['repo.read'],
          connectedAt: '2026-11-27T12:30:00.000Z',
          refreshedAt: null,
        },
      ],
    },
  },
  connectMyAccount: {
    description:
      "As connectLanguageTool, for the signed-in person's own account on a LanguageTool with `auth.oauth2.connect: perPerson` (422 naming `spec.auth.oauth2.connect` otherwise); the authorization server sends the browser back to `/api/v1/connections/callback`.",
    response: {
      authorizationUrl: 'https://auth.github.example.com/authorize?response_type=code&client_id=…&code_challenge=…&code_challenge_method=S256&state=…',
      expiresAt: '2026-11-27T14:40:00.000Z',
    },
    parameters: { id: 'github', namespace: 'platform' },
  },
  disconnectMyAccount: {
    description:
      "Deletes the signed-in person's tokens for the LanguageTool at once, then revokes the refresh token (and the access token) at the authorization server when its metadata names a revocation endpoint (RFC 7009). Calls made for the person then answer that they need connecting. Audited.",
    parameters: { id: 'github', namespace: 'platform' },
  },
  finishMyConnection: {
    description:
      "The redirect URI of people's own connections (`{public origin}/api/v1/connections/callback`). As finishLanguageToolConnection: the state must be pending, unexpired, a person's own (an operator's state is refused here, and a person's at the operator's callback) and started by the caller; it is spent before the code is exchanged.",
    parameters: { state: 'mJ1n…', code: 'x7Qp…' },
  },
  refreshLanguageTool: {
    description: 'Queues a discovery run of the MCP server now (202): health, initialize, every page of tools/list, and a compliance report.',
    response: { queued: true, subject: { kind: 'LanguageTool', id: ID, name: 'github', namespace: 'platform' } },
    parameters: { id: 'github', namespace: 'platform' },
  },
  applyManifest: {
    description:
      'Validates every document (alone, against the others and against what is stored) and writes all of them or none, in one transaction. Each result says what changed field by field (`changes`). `?dryRun=true` writes nothing and adds `impact`: every agent whose effective tool set would change, tool by tool, with the reason. `?prune=<label selector>` deletes the resources that carry those labels but are not in the manifest (a dry run lists them). Resources as GET answers them, `kind: List` documents and Kubernetes-style Secrets are accepted; the fields the server sets are ignored, any other unknown field is refused.',
    request: [EXAMPLE_MANIFESTS.Unit, EXAMPLE_MANIFESTS.Tool],
    response: APPLY_RESULT,
    parameters: { dryRun: 'true', prune: 'app.kubernetes.io/managed-by=payments-gitops' },
  },
  getOverview: {
    description: 'Counts of every kind, tools by side-effect level and type, namespaces and MCP servers by phase: the dashboard in one answer.',
    response: {
      counts: { tools: 48, languageTools: 8, connectors: 4, units: 10, agents: 14, secrets: 7 },
      toolsByLevel: [{ level: 'read_only', count: 21 }],
      toolsByType: [{ type: 'rest', count: 30 }],
      namespaces: ['finance', 'platform', 'sandbox', 'support', 'support-platform'],
      languageToolsByPhase: [{ phase: 'Ready', count: 7 }],
      firstRun: { serverReady: true, toolApplied: true, agentCredential: true, callMade: true, callCounted: false },
    },
  },
  getOpenApiDocument: {
    description: 'This OpenAPI 3.1 document, generated from the same zod schemas that validate requests. Public: no sign-in needed.',
    response: { openapi: '3.1.0', info: { title: 'Toolroom API', version: '1.0.0' } },
  },
  listDiscoveryRuns: {
    description:
      'Every discovery run (image listeners and MCP servers), newest first: trigger, status, timings and the error of a failed one. Filter by subject and status.',
    response: { items: [RUN], nextCursor: null },
    parameters: { subjectKind: 'LanguageTool', status: 'failed' },
  },
  listSurfaceChanges: {
    description:
      'Changes discovery found in tool surfaces, newest first, with their diffs. Changes of pinned servers wait with status `pending_review` until someone accepts or rejects them.',
    response: { items: [CHANGE], nextCursor: null },
    parameters: { status: 'pending_review' },
  },
  acceptSurfaceChange: {
    description: 'Accepts a held change: the new definitions become what agents see. Audited with the comment.',
    request: { comment: 'Reviewed the new create_issue schema.' },
    response: {
      ...CHANGE,
      status: 'accepted',
      proposed: null,
      decidedBy: 'operator@toolroom.local',
      decidedAt: AT,
      comment: 'Title is required upstream now.',
    },
  },
  rejectSurfaceChange: {
    description: 'Rejects a held change: agents keep the definitions accepted before. Audited with the comment.',
    request: { comment: 'The new schema drops the labels argument our agents use.' },
    response: { ...CHANGE, status: 'rejected', proposed: null, decidedBy: 'operator@toolroom.local', decidedAt: AT, comment: 'Wait for the server fix.' },
  },
  listApprovals: {
    description:
      'Pending requests oldest first, with agent, tool, level, redacted arguments, idempotency key, limits and time left; decided ones newest first. `total` counts the whole filtered queue.',
    response: { items: [APPROVAL], total: 1, nextCursor: null },
    parameters: { status: 'pending', level: 'financial' },
  },
  approvalStats: {
    description: 'Queue depth now and the time from request to decision (p50, p95) over the last 7 days.',
    response: {
      pending: 3,
      oldestPendingAt: '2026-11-24T08:02:11.000Z',
      timeToDecisionSeconds: { p50: 95, p95: 1380, decided: 41 },
      decided7d: { approved: 33, denied: 6, expired: 2 },
    },
  },
  getApproval: {
    description: 'One request with its decision (who, when, comment) and the execution of an approved call.',
    response: APPROVAL,
    parameters: { id: APPROVAL.id },
  },
  approveCall: {
    description:
      'Approves a pending call; a worker then runs it exactly once and records the result on the call. A request someone else decided first answers 409 naming them.',
    request: { comment: 'Refund agreed with the customer on ticket 48211.' },
    response: {
      ...APPROVAL,
      status: 'approved',
      secondsLeft: null,
      decision: { by: 'approver@toolroom.local', byId: ID, at: AT, comment: 'Refund agreed with the customer on ticket 48211.', effectiveAt: AT },
    },
  },
  denyCall: {
    description:
      'Denies a pending call; it never runs, and the agent is told so when it asks or repeats the call. A request someone else decided first answers 409 naming them.',
    request: { comment: 'Duplicate of an earlier refund.' },
    response: {
      ...APPROVAL,
      status: 'denied',
      secondsLeft: null,
      decision: { by: 'approver@toolroom.local', byId: ID, at: AT, comment: 'Duplicate of an earlier refund.', effectiveAt: AT },
    },
  },
  undoDecision: {
    description:
      'Takes back a decision while it can still be undone (until `decision.effectiveAt`, TOOLROOM_APPROVAL_UNDO_SECONDS after it was made): the request is pending again, the call is not run, and a job queued for the decision runs nothing. Only whoever made the decision (signed in or with one of their own tokens) or an admin can undo it; anyone else gets 403 naming the decider. Once the decision took effect, or the call started, it answers 409 saying so.',
    response: { ...APPROVAL, status: 'pending', decision: null, execution: null },
  },
  decideApprovals: {
    description:
      'Approves or denies up to 500 requests with one comment. Each is decided on its own: the answer says, per id, whether it went through or why not.',
    request: { ids: [APPROVAL.id], decision: 'approve', comment: 'Month-end refunds, checked.' },
    response: { results: [{ id: APPROVAL.id, ok: true }] },
  },
  listWebhooks: {
    description: 'The endpoints that receive `approval.requested` and `approval.decided`, signed with their secret (which is never shown again).',
    response: { items: [WEBHOOK] },
  },
  createWebhook: {
    description:
      'Adds an endpoint. Deliveries are signed `Toolroom-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` with the secret in this answer (generated unless given), and retried with backoff.',
    request: { name: 'approvals-slack', url: 'https://hooks.example.com/toolroom', events: ['approval.requested', 'approval.decided'] },
    response: { ...WEBHOOK, secret: 'whsec_5pX2c9Lq0d7Vn3Rt8Ka1' },
  },
  updateWebhook: {
    description: "Changes an endpoint's URL, events or whether it is enabled; its name and secret stay.",
    request: { enabled: false },
    response: { ...WEBHOOK, enabled: false },
  },
  deleteWebhook: { description: 'Removes an endpoint; queued deliveries to it are dropped.', parameters: { id: ID } },
  listWebhookDeliveries: {
    description: 'Recent deliveries to an endpoint, newest first: event, attempts, HTTP status and when it was delivered.',
    response: {
      items: [
        {
          id: ID,
          endpointId: WEBHOOK.id,
          event: 'approval.requested',
          attempts: 1,
          status: 'delivered',
          lastStatus: 200,
          lastError: null,
          createdAt: AT,
          deliveredAt: '2026-11-24T09:30:00.300Z',
        },
      ],
    },
    parameters: { id: ID },
  },
  listAuditEvents: {
    description:
      'The append-only audit log, newest first: every resource change with its document before and after (never Secret values), decisions, discovery refreshes, sign-ins and token actions. Filter by actor, action (or a `prefix.*`), kind, namespace, resource and time.',
    response: { items: [AUDIT_EVENT], nextCursor: null },
    parameters: { action: 'resource.*', namespace: 'finance' },
  },
  exportAuditEvents: {
    description: 'The whole filtered log as JSON Lines, one AuditEvent per line, oldest first, streamed (for archives and SIEMs).',
    response: `${JSON.stringify(AUDIT_EVENT)}\n`,
    parameters: { from: '2026-11-01', to: '2026-12-01' },
  },
  rotateSecret: {
    description: "Replaces a Secret's values in place: name, labels and every secretRef stay, the generation goes up, the rotation is audited. Admins only.",
    request: { stringData: { token: '<new value>' } },
    response: exampleResource('Secret'),
  },
  callToolOverRest: {
    description:
      "Runs the agent's tool through the gateway pipeline (effective set, argument check, rate limits, idempotency, approval, execution, call log), as MCP `tools/call` does. Problems carry the JSON-RPC code as `rpcCode`: 404 not available, 403 refused by a Policy (`data.policy`, `data.rule`, `data.reason`), 422 invalid arguments (with `data.violations`), 429 rate limited (with Retry-After), 409 still in progress, 502 the tool failed. Agent credentials only.",
    request: { arguments: { subject: 'Order 1042 arrived damaged', body: 'Customer sent photos.' }, idempotencyKey: 'ticket-1042-damaged' },
    response: { callId: CALL.id, result: { content: [{ type: 'text', text: 'Created ticket 48211' }], structuredContent: { id: 48211 } } },
    parameters: { toolId: 'zendesk.create_ticket' },
  },
  ingestToolCalls: {
    description:
      'Records up to 1,000 calls the agent ran itself (image tools), for its own effective tools only, started within the 8 days statistics keep. All or nothing; records whose id was recorded before are skipped, so a batch can be sent again.',
    request: { calls: [{ toolId: 'finance.parse_remittance', outcome: 'succeeded', startedAt: AT, finishedAt: '2026-11-24T09:30:00.250Z' }] },
    response: { accepted: 1, duplicates: 0 },
  },
  createAgentCredential: {
    description: 'Issues a gateway credential (`tra_…`) for the agent; the token is in this answer only and stored as a hash. Admins only.',
    request: { name: 'prod', expiresInDays: 90 },
    response: { ...CREDENTIAL, token: 'tra_Q3x9v7Lk2Pd8Rm4Tn6Wb1Yc5Ze0Ha3Jf' },
    parameters: { id: 'ap-clerk', namespace: 'finance' },
  },
  listAgentCredentials: {
    description: "The agent's gateway credentials with their state; never the tokens.",
    response: { items: [CREDENTIAL] },
    parameters: { id: 'ap-clerk', namespace: 'finance' },
  },
  revokeAgentCredential: {
    description: 'Revokes a credential; every gateway refuses it within `TOOLROOM_AGENT_AUTH_CACHE_MS` (3 s). Admins only.',
    response: { ...CREDENTIAL, state: 'revoked', revokedAt: AT },
    parameters: { id: 'ap-clerk', credentialId: ID },
  },
  listAllAgentCredentials: {
    description: 'Gateway credentials of every agent, newest first, with the agent they belong to; never the tokens. Filter by state, agent and text.',
    response: { items: [{ ...CREDENTIAL, agent: { namespace: 'finance', name: 'ap-clerk' } }], total: 1, nextCursor: null },
    parameters: { status: 'active', agent: 'finance/ap-clerk' },
  },
  getOverallCallStats: {
    description: 'Calls, failures, refusals, failure rate and latency percentiles of every call, by day and by hour, over today and the six previous UTC days.',
    response: callStats('all', ''),
  },
  getToolCallStats: {
    description: 'Statistics of one Tool resource: its own calls, not those of same-named tools in other namespaces or servers.',
    response: callStats('tool', 'Tool/finance/stripe.create_refund'),
    parameters: { id: 'stripe.create_refund', namespace: 'finance' },
  },
  getResolvedToolCallStats: {
    description: 'Statistics of any resolved tool by its key: a Tool, a tool of a connector or MCP server, an image tool or a platform tool.',
    response: callStats('tool', 'LanguageTool/platform/github/github.create_issue'),
    parameters: { key: 'LanguageTool/platform/github/github.create_issue' },
  },
  getAgentCallStats: {
    description: "Statistics of one agent's calls.",
    response: callStats('agent', ID),
    parameters: { id: 'ap-clerk', namespace: 'finance' },
  },
  getUnitCallStats: {
    description: 'Statistics of the calls of the agents in a unit and in every unit below it.',
    response: callStats('unit', 'finance/payables'),
    parameters: { id: 'payables', namespace: 'finance' },
  },
  getToolNamespaceCallStats: {
    description: 'Statistics of every tool whose id starts with this namespace (`stripe` for stripe.*).',
    response: callStats('namespace', 'stripe'),
    parameters: { namespace: 'stripe' },
  },
  listTopFailingTools: {
    description: 'The resolved tools with the most failed calls over the last 7 days, with their calls, refusals and failure rate.',
    response: {
      items: [
        {
          key: 'Tool/finance/stripe.create_refund',
          toolId: 'stripe.create_refund',
          source: { kind: 'Tool', namespace: 'finance', name: 'stripe.create_refund' },
          calls: 120,
          failures: 9,
          refused: 2,
          failureRate: 0.075,
        },
      ],
    },
    parameters: { limit: 10 },
  },
  getCallStatsByPerson: {
    description:
      "Calls by the person they were made for (`onBehalfOf`) over the last 7 days, most calls first: calls, failures, refusals, failure rate and how many agents acted for them. The calls agents made on their own are one row with `onBehalfOf: null`. `issuer` narrows to one identity provider's people. Read from the rollup (per person, agent and hour), never the call log.",
    response: {
      window: { from: '2026-11-21T00:00:00.000Z', to: '2026-11-27T15:04:05.000Z' },
      items: [
        {
          onBehalfOf: { issuer: 'https://login.acme.example', subject: '00u1jane', displayName: 'Jane Doe' },
          calls: 412,
          failures: 9,
          refused: 3,
          failureRate: 0.0218,
          agents: 3,
        },
        { onBehalfOf: null, calls: 188, failures: 2, refused: 0, failureRate: 0.0106, agents: 5 },
      ],
      total: 2,
    },
    parameters: { limit: 20, issuer: 'https://login.acme.example' },
  },
  listCalls: {
    description: 'Recorded calls, newest first, without arguments and results; filter by agent, tool, resolved tool, namespace, outcome, channel and time.',
    response: { items: [CALL], nextCursor: null },
    parameters: { outcome: 'failed', tool: 'stripe.create_refund' },
  },
  getCall: {
    description: "One call with the arguments and result that were stored: only where the tool's observability allows, redacted before they were written.",
    response: { ...CALL, args: { subject: 'Order 1042 arrived damaged', body: '[redacted]' }, result: null },
    parameters: { id: CALL.id },
  },
  getToolFailures: {
    description:
      "Why one resolved tool fails, by its statistics key (as `toolKey` on calls): its failure rate by day and hour, failures by error code and message with counts and shares, calls and failures by agent, and its ten latest failed calls with the upstream's redacted reply. Read from the rollup, so it counts the same calls as the other statistics.",
    parameters: { key: 'Tool/finance/stripe.create_refund' },
  },
  getOAuthProtectedResource: {
    description:
      "Protected resource metadata (RFC 9728) of the MCP endpoint: MCP clients read it after a 401 from /mcp to find the authorization server. Public; addresses follow TOOLROOM_PUBLIC_URL or the request's forwarded host.",
    response: PROTECTED_RESOURCE_METADATA,
  },
  getOAuthProtectedResourceMcp: {
    description: 'The same metadata at the path RFC 9728 derives from the resource `/mcp` (`WWW-Authenticate: Bearer resource_metadata=…` names this one).',
    response: PROTECTED_RESOURCE_METADATA,
  },
  getOAuthAuthorizationServer: {
    description:
      'Authorization server metadata (RFC 8414) of the OAuth provider MCP clients use: authorization code with PKCE and client credentials. `registration_endpoint` is present only while an admin lets some agent accept dynamically registered clients.',
    response: AUTHORIZATION_SERVER_METADATA,
  },
  getOAuthAuthorizationServerAtBasePath: {
    description: 'The same authorization server metadata at the path RFC 8414 derives from the issuer `/api/auth`.',
    response: AUTHORIZATION_SERVER_METADATA,
  },
  listOAuthClients: {
    description:
      'OAuth clients of the MCP endpoint, each bound to the one agent its tokens act as, with how many tokens are live; and the agents that accept dynamically registered clients. Admins only.',
    response: { items: [OAUTH_CLIENT], dynamicRegistration: [{ ...OAUTH_CLIENT.agent, allowedBy: 'admin@toolroom.local' }] },
  },
  createOAuthClient: {
    description:
      "Registers a client for one agent: `authorization_code` for a person's MCP client (PKCE, with redirect URIs) or `client_credentials` for a workload (its `clientSecret` is in this answer only, stored sealed). Admins only; audited.",
    request: {
      name: 'Claude Desktop (support)',
      agent: 'support/support-escalation',
      kind: 'authorization_code',
      redirectUris: ['http://127.0.0.1:33418/callback'],
    },
    response: OAUTH_CLIENT,
  },
  revokeOAuthClient: {
    description: 'Disables a client and revokes every token it holds; agents using it are refused from the next request. Admins only; audited.',
    response: { ...OAUTH_CLIENT, disabled: true, activeTokens: 0 },
    parameters: { clientId: OAUTH_CLIENT.clientId },
  },
  setOAuthDynamicRegistration: {
    description:
      'Lets (or stops letting) dynamically registered clients be bound to this agent when a person consents; registration (RFC 7591) is open while any agent allows it. Admins only; audited.',
    request: { allowed: true },
    response: { agent: OAUTH_CLIENT.agent, allowed: true },
    parameters: { agent: 'support/support-escalation' },
  },
  decideOAuthConsent: {
    description:
      "A signed-in person with write access allows or denies an MCP client acting as an agent; the consent page sends this with the query the authorization server signed. Answers where the browser goes next (the client's redirect URI with a code, or with `error=access_denied`).",
    request: { oauthQuery: 'client_id=tcl_8f2a&scope=mcp&state=x1&sig=…', accept: true },
    response: { redirectTo: 'http://127.0.0.1:33418/callback?code=Qm9v&state=x1' },
  },
  explainAgentCall: {
    description:
      'Answers whether the agent may call the named tool, and why, as the gateway would decide it now: the decision (`allowed`, `approval_required`, `denied`, `unknown_tool`, `invalid_arguments`, `rate_limited`) with every candidate of the name (tier, provenance, why it won or lost), safety and toggles, argument violations, rate-limit headroom, the approval rule and its expiry, the idempotency key a call would use, and a prefilled Apply draft for each fix. Nothing is called, counted or recorded.',
    request: { tool: 'stripe.create_refund', arguments: { charge: 'ch_3Nd1', amount: 1200 } },
    parameters: { id: ID },
  },
  testPolicy: {
    description:
      "Judges a Policy against sample calls, as `toolroom policy test -f cases.yaml` does in CI (docs/design/policy.md#testing): the applied Policy of `policy.namespace`/`policy.name`, or the one given whole in `policy.spec` (checked as Apply checks it, cost limit included). Each case names the tool, the agent (namespace, name, labels, units), the arguments, the person and the time, and the effect it expects: `error` (a rule could not be evaluated, so the gateway refuses the call), `deny`, `require_approval`, `limit`, `redact` or `allow`, strongest first. The answer gives each case's effect by the gateway's own evaluation, whether the Policy reached the call, what the agent would be told, and each rule's outcome with the argument values it read. Nothing is called, counted or recorded.",
    request: {
      policy: { namespace: 'finance', name: 'large-refunds' },
      cases: [
        { name: 'a large refund waits', tool: 'stripe.create_refund', agent: { labels: { team: 'ap' } }, args: { amount: 70000 }, expect: 'require_approval' },
        { name: 'wrongly expected', tool: 'stripe.create_refund', agent: { labels: { team: 'ap' } }, args: { amount: 90000 }, expect: 'allow' },
      ],
    },
    response: {
      policy: { namespace: 'finance', name: 'large-refunds', source: 'applied' },
      passed: 1,
      failed: 1,
      cases: [
        {
          index: 0,
          name: 'a large refund waits',
          expect: 'require_approval',
          effect: 'require_approval',
          pass: true,
          reached: true,
          message: 'stripe.create_refund waits for approval: Refunds above 500.00 need a second person (rule 0)',
          rules: [
            { rule: 0, effect: 'require_approval', reason: 'Refunds above 500.00 need a second person', outcome: 'matched', values: { 'args.amount': 70000 } },
          ],
        },
        {
          index: 1,
          name: 'wrongly expected',
          expect: 'allow',
          effect: 'require_approval',
          pass: false,
          reached: true,
          message: 'stripe.create_refund waits for approval: Refunds above 500.00 need a second person (rule 0)',
          rules: [
            { rule: 0, effect: 'require_approval', reason: 'Refunds above 500.00 need a second person', outcome: 'matched', values: { 'args.amount': 90000 } },
          ],
        },
      ],
    },
  },
  compareAgentEffectiveTools: {
    description:
      "Puts two effective sets side by side: the agent's and another agent's (`with`), or a unit's (`with` and `withKind=Unit`). For each tool one side can call and the other cannot: where it comes from on the side that has it, why the other side cannot call it (for an agent, the explainer's summary, as `POST /api/v1/agents/{id}/explain` answers it) and the manifest changes that would let it, ready for Apply. Tools both can call from another source or under another approval rule are listed too. Nothing is called or recorded.",
    parameters: { id: ID, with: 'support-escalation', withKind: 'Agent' },
  },
  listAgentsWithTool: {
    description:
      'Agents whose effective set holds this Tool, with its state for each (enabled, disabled, denied, shadowed) and the reason; filter by `state`, keyset pages.',
    parameters: { id: ID, state: 'denied' },
  },
  renderLanguageTool: {
    description:
      "Toolroom runs no workloads; this writes the one a LanguageTool's `deploymentMode` asks for, from `spec.image` and `spec.port`. `service`: a Deployment and a Service as a Kubernetes List (`kubectl apply -f`), the Service's address being exactly the endpoint Toolroom and config.yaml use. `sidecar`: the container to add to the agent's pod, reached on localhost. Send `Accept: application/yaml` for YAML. 409 naming `spec.image` when there is no image, or `spec.endpoint` when it points elsewhere than the Service.",
    parameters: { id: 'github' },
    response: {
      mode: 'sidecar',
      endpoint: 'http://localhost:8080',
      container: {
        name: 'mcp-github',
        image: 'ghcr.io/acme/github-mcp:1.4.2',
        ports: [{ name: 'mcp', containerPort: 8080, protocol: 'TCP' }],
        securityContext: {
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        },
      },
    },
  },
  listRegistryServers: {
    description:
      "The MCP Registry API (v0.1, server.json 2025-12-11) over the LanguageTools: each as a server whose only remote is Toolroom's gateway (`<origin>/mcp`, an agent credential as the bearer token), never the server's own address; under `_meta[\"dev.toolroom/registry\"]` its live tools with their side-effect levels, the surface's revision, digest and when it last changed. `search` is a substring of the name, `updated_since` keeps servers whose spec or tools changed after it, `version=latest` keeps all (each has one version). Pages by `cursor` (metadata.nextCursor).",
    parameters: { search: 'github', updated_since: AT, limit: 30 },
    response: {
      servers: [REGISTRY_SERVER],
      metadata: { count: 1, nextCursor: 'WyJzdXBwb3J0IiwiZ2l0aHViIiwiMGY4YzJkNmUiXQ' },
    },
  },
  listRegistryServerVersions: {
    description: "A server's versions: Toolroom keeps its current surface only, so the list holds one entry, the latest. 404 for a name it does not serve.",
    parameters: { serverName: 'dev.toolroom.support%2Fgithub' },
    response: { servers: [REGISTRY_SERVER], metadata: { count: 1 } },
  },
  getRegistryServerVersion: {
    description:
      'One version of a server: `latest`, or its version (what the server reports as serverInfo.version, 0.0.0 when it gave none usable). 404 otherwise.',
    parameters: { serverName: 'dev.toolroom.support%2Fgithub', version: 'latest' },
    response: REGISTRY_SERVER,
  },
  search: {
    description:
      "The portal's search box over the API: resources whose name (or a Tool's description) holds `q`, best matches first and grouped by kind; waiting approvals whose tool or agent holds it; the latest calls of the tool it names. A uuid finds that call or approval. Only what the caller may read.",
    parameters: { q: 'refund' },
  },
  signIn: {
    description:
      "Signs in with email and password and sets the session cookie. Send `Origin` (Toolroom's own); attempts are limited per client address and per account. Scripts should use API tokens instead.",
    request: { email: 'operator@toolroom.local', password: 'toolroom-demo-operator' },
    response: { user: { id: ID, email: 'operator@toolroom.local', name: 'Olu Operator', role: 'operator' } },
  },
  whoAmI: {
    description: 'The caller as Toolroom sees it: a person (with the role) or an API token (with its scopes).',
    response: { kind: 'token', id: ID, name: 'ci', roles: ['operator'], scopes: ['read', 'write'] },
  },
  signOut: { description: 'Ends this session and clears its cookie.' },
  changeOwnPassword: {
    description: "Changes the signed-in person's own password (a session, not an API token); their other sessions end. At least 12 characters.",
    request: { currentPassword: 'toolroom-demo-operator', newPassword: 'a much longer passphrase' },
  },
  listUsers: { description: 'Everyone who can sign in, with role, how they sign in, and whether they are disabled. Admins only.', response: { items: [USER] } },
  createUser: {
    description: 'Adds a person with a role; without a password one is generated and returned once. Admins only; audited.',
    request: { email: 'new.approver@example.com', name: 'Ana Approver', role: 'approver' },
    response: { user: { ...USER, email: 'new.approver@example.com', name: 'Ana Approver', role: 'approver' }, password: 'generated-once-q8Lm2Xv' },
  },
  changeUser: {
    description: "Changes someone's role or name, or disables them; their sessions end. Admins only; audited.",
    request: { role: 'approver' },
    response: { ...USER, role: 'approver' },
  },
  resetUserPassword: {
    description: "Sets someone's password, or generates one returned once; all their sessions end. Admins only; audited.",
    request: {},
    response: { password: 'generated-once-q8Lm2Xv' },
  },
  removeUser: { description: 'Removes a person with their sessions and API tokens. Admins only; audited.', parameters: { id: ID } },
  listApiTokens: {
    description: "API tokens: the caller's own, or everyone's for admins, with scopes, expiry and last use; never the token itself.",
    response: { items: [TOKEN] },
  },
  createApiToken: {
    description:
      "Creates an API token (`trk_…`), shown once in this answer and stored as a hash. Scopes cannot exceed the creator's role; a token that creates tokens needs `write`, gives only scopes it holds and an expiry no later than its own. Default expiry 90 days; `null` never expires.",
    request: { name: 'ci', scopes: ['read', 'write'], expiresInDays: 90 },
    response: { ...TOKEN, token: 'trk_3f9a1c7e5b2d8a4c6e0f1b3d5a7c9e1f3b5d7f9a' },
  },
  revokeApiToken: {
    description:
      'Revokes a token at once in this process and within `TOOLROOM_API_TOKEN_CACHE_MS` (2 s) in others; a token caller revokes only tokens within its own scopes.',
    response: { ...TOKEN, status: 'revoked', revokedAt: AT },
    parameters: { id: ID },
  },
}

export function operationDoc(operationId: string): OperationDoc | undefined {
  return DOCS[operationId]
}
