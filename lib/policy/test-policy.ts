// POST /api/v1/policy-tests: a Policy (the applied one of that name, or one given whole) against
// sample calls, with the gateway's own evaluation (docs/design/policy.md#testing).
import 'server-only'
import type { PolicySpec } from '@/lib/manifests/specs/policy'
import { getRow } from '@/lib/resources/resource-store'
import type { PolicyTestRequest, PolicyTestResult } from '@/lib/manifests/specs/policy-test'
import { runPolicyCases } from './run-policy-cases'

export async function testPolicy(request: PolicyTestRequest, now = new Date()): Promise<PolicyTestResult> {
  const { namespace, name, spec } = request.policy
  if (spec) return runPolicyCases({ namespace, name, spec, source: 'request' }, request.cases, now)
  const row = await getRow('Policy', name, namespace)
  return runPolicyCases({ namespace, name, spec: row.spec as PolicySpec, source: 'applied' }, request.cases, now)
}
