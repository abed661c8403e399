// Policies beyond their resource routes: testing one against sample calls, as CI does with
// `toolroom policy test -f cases.yaml`. It only evaluates (no call, no record, no limit counted), so
// `read` may ask; a Policy given whole passes Apply's checks first, its cost limit included.
import { maxMcpBodyBytes } from '@/lib/gateway/mcp-handler'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { policyTestRequestSchema, policyTestResultSchema } from '@/lib/manifests/specs/policy-test'
import { testPolicy } from '@/lib/policy/test-policy'

export const POLICY_CONTRACTS = {
  test: {
    method: 'POST',
    path: '/api/v1/policy-tests',
    operationId: 'testPolicy',
    tags: ['Policy'],
    access: 'read',
    summary:
      "A Policy (applied, or given whole) against sample calls with the effect each expects: the gateway's own evaluation of every case, its effect, whether it matched the expectation, and each rule's outcome with the values it read",
    body: policyTestRequestSchema,
    // Sample arguments are taken as an agent could send them (text PostgreSQL cannot store included): nothing of them is stored.
    safeTextFields: ['cases'],
    // Every rule runs on every case's arguments: all of them together are bounded as one gateway call's are.
    maxBodyBytes: maxMcpBodyBytes,
    response: policyTestResultSchema,
  },
} satisfies Record<string, RouteContract>

export const policyRoutes = {
  test: route(POLICY_CONTRACTS.test, async ({ body }) => testPolicy(body)),
}
