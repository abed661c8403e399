// Examples for the OpenAPI document: one manifest per kind (each must pass Apply's validation; the
// OpenAPI test applies them) and the resource views the API answers with. They follow the demo fleet
// (prisma/seed/demo-fleet.yaml) so a reader meets the same names in the docs and on `npm start`.
import type { Kind } from '@/lib/manifests/kinds'

const API_VERSION = 'toolroom.dev/v1alpha1'

export const EXAMPLE_MANIFESTS: Record<Kind, { apiVersion: string; kind: Kind; metadata: Record<string, unknown>; spec: Record<string, unknown> }> = {
  Tool: {
    apiVersion: API_VERSION,
    kind: 'Tool',
    metadata: { name: 'stripe.create_refund', namespace: 'finance', labels: { 'northwind.example/system': 'stripe' } },
    spec: {
      type: 'rest',
      description: "Refund all or part of a Stripe charge to the customer's original payment method.",
      endpoint: { method: 'POST', url: 'https://api.stripe.com/v1/refunds', auth: { type: 'bearer', secretRef: { name: 'stripe-secret-key', key: 'token' } } },
      inputSchema: {
        type: 'object',
        required: ['charge', 'reason'],
        properties: {
          charge: { type: 'string', pattern: '^ch_[A-Za-z0-9]+$' },
          amount: { type: 'integer', minimum: 1 },
          reason: { type: 'string', enum: ['duplicate', 'fraudulent', 'requested_by_customer'] },
        },
      },
      sideEffects: { level: 'financial', idempotent: false, requiresApproval: true, idempotencyKeyTemplate: 'refund-{{ args.charge }}-{{ args.amount }}' },
      safety: { deniedNamespaces: ['sandbox'], rateLimit: { callsPerMinute: 2, callsPerDay: 100 } },
    },
  },
  LanguageTool: {
    apiVersion: API_VERSION,
    kind: 'LanguageTool',
    metadata: { name: 'github', namespace: 'platform' },
    spec: {
      endpoint: 'http://github-mcp.platform.svc.cluster.local:8080/mcp',
      port: 8080,
      deploymentMode: 'service',
      transport: 'streamable-http',
      description: 'GitHub MCP server: issues, pull requests, code search.',
    },
  },
  Connector: {
    apiVersion: API_VERSION,
    kind: 'Connector',
    metadata: { name: 'stripe', namespace: 'finance' },
    spec: {
      displayName: 'Stripe',
      description: 'Payments: customers, charges and refunds.',
      tools: ['stripe.get_customer', 'stripe.list_charges', 'stripe.create_refund'],
    },
  },
  Unit: {
    apiVersion: API_VERSION,
    kind: 'Unit',
    metadata: { name: 'payables', namespace: 'finance', labels: { 'northwind.example/department': 'finance' } },
    spec: {
      displayName: 'Accounts Payable',
      parent: 'finance',
      grants: ['erp.list_open_payables', 'erp.schedule_payment'],
      toggles: { 'stripe.create_refund': false },
    },
  },
  Agent: {
    apiVersion: API_VERSION,
    kind: 'Agent',
    metadata: { name: 'ap-clerk', namespace: 'finance', labels: { 'northwind.example/department': 'finance' } },
    spec: {
      displayName: 'AP Clerk',
      unit: 'payables',
      image: 'ghcr.io/northwind/ap-clerk:2.0.1@sha256:4a5c2bd84e1a0b3c2d7f1e9a8b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c',
      languageTools: ['platform/mem0-memory'],
      grants: ['finance.ocr_invoice'],
    },
  },
  Secret: {
    apiVersion: API_VERSION,
    kind: 'Secret',
    metadata: { name: 'stripe-secret-key', namespace: 'finance' },
    spec: { type: 'bearer', stringData: { token: '<the key>' } },
  },
  SideEffectPolicy: {
    apiVersion: API_VERSION,
    kind: 'SideEffectPolicy',
    metadata: { name: 'financial', namespace: 'default' },
    spec: {
      level: 'financial',
      requiresApproval: true,
      logArgs: true,
      logResult: true,
      rateLimit: { callsPerMinute: 30, callsPerDay: 2000 },
      approvalExpirySeconds: 14400,
    },
  },
  Policy: {
    apiVersion: API_VERSION,
    kind: 'Policy',
    metadata: { name: 'large-refunds', namespace: 'finance' },
    spec: {
      selector: { tools: ['stripe.create_refund', 'payments.*'], agents: { matchLabels: { team: 'ap' } } },
      rules: [{ when: 'has(args.amount) && args.amount > 50000', effect: 'require_approval', reason: 'Refunds above 500.00 need a second person' }],
    },
  },
  IdentityProvider: {
    apiVersion: API_VERSION,
    kind: 'IdentityProvider',
    metadata: { name: 'corp-sso', namespace: 'default' },
    spec: { issuer: 'https://login.example.com', audiences: ['toolroom'], subjectClaim: 'sub', displayNameClaim: 'name', emailClaim: 'email' },
  },
}

const STATUS: Partial<Record<Kind, Record<string, unknown>>> = {
  Tool: {
    phase: 'Ready',
    conditions: [
      {
        type: 'SecretAvailable',
        status: 'True',
        reason: 'SecretFound',
        message: 'secret support-platform/zendesk-token holds key token',
        lastTransitionTime: '2026-11-20T08:12:31.000Z',
      },
      {
        type: 'EndpointAllowed',
        status: 'True',
        reason: 'AllowedByPolicy',
        message: 'the outbound policy allows the endpoint',
        lastTransitionTime: '2026-11-20T08:12:31.000Z',
      },
      {
        type: 'CallsSucceeding',
        status: 'True',
        reason: 'FailureRateLow',
        message: '1 of 41 calls failed in the last 2 hours',
        lastTransitionTime: '2026-11-23T16:40:02.000Z',
      },
    ],
    totalCalls7d: 41,
    failureRate7d: 0.024,
  },
  LanguageTool: {
    phase: 'Ready',
    endpoint: 'http://github-mcp.platform.svc.cluster.local:8080/mcp',
    health: 'healthy',
    lastIntrospectedAt: '2026-11-24T09:45:00.000Z',
    lastError: null,
    detectedTransport: 'streamable-http',
  },
}

/** A resource as GET answers it. */
export function exampleResource(kind: Kind, id = '0f8c2d6e-3b1a-4c5d-9e7f-1a2b3c4d5e6f') {
  const manifest = EXAMPLE_MANIFESTS[kind]
  const spec = kind === 'Secret' ? { type: 'bearer', keys: ['token'] } : manifest.spec
  return {
    id,
    apiVersion: manifest.apiVersion,
    kind,
    metadata: {
      labels: {},
      annotations: {},
      ...manifest.metadata,
      namespace: manifest.metadata.namespace ?? 'default',
      generation: 3,
      createdAt: '2026-11-20T08:12:30.000Z',
      updatedAt: '2026-11-23T16:40:02.000Z',
    },
    spec,
    ...(STATUS[kind] ? { status: STATUS[kind] } : {}),
  }
}

export const EXAMPLE_EFFECTIVE_TOOL = {
  name: 'stripe.create_refund',
  namespace: 'finance',
  toolNamespace: 'stripe',
  description: "Refund all or part of a Stripe charge to the customer's original payment method.",
  inputSchema: EXAMPLE_MANIFESTS.Tool.spec.inputSchema,
  provenance: 'connector:stripe',
  tier: 'connector',
  inheritedFromUnit: 'finance',
  source: { kind: 'Connector', name: 'stripe', namespace: 'finance' },
  type: 'rest',
  sideEffects: { level: 'financial', levelSource: 'declared', idempotent: false },
  requiresApproval: true,
  approvalSource: 'tool',
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  rateLimit: { callsPerMinute: 2, callsPerDay: 100 },
  state: 'disabled',
  reason: 'disabled by a toggle on unit "payables"',
  totalCalls7d: 0,
  failureRate7d: null,
}
