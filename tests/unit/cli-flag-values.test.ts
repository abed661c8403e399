// The values the CLI checks --outcome, --status and --level against are generated from the OpenAPI
// document (scripts/openapi-client-types.mts names the query parameter each is read from): they are
// the server's own lists, so a wrong parameter there, or a route that stops taking a list, shows here.
import { describe, expect, it } from 'vitest'
import { APPROVAL_STATUSES, CALL_OUTCOMES, SIDE_EFFECT_LEVELS } from '@/cli/src/generated/openapi.mjs'
import { APPROVAL_STATUSES as SERVER_APPROVAL_STATUSES } from '@/lib/approvals/approval-view'
import { SIDE_EFFECT_LEVELS as SERVER_SIDE_EFFECT_LEVELS } from '@/lib/manifests/side-effect-levels'
import { CALL_OUTCOMES as SERVER_CALL_OUTCOMES } from '@/lib/stats/call-outcomes'

describe("the CLI's flag values", () => {
  it('are the lists the server validates those query parameters with', () => {
    expect(CALL_OUTCOMES).toEqual(SERVER_CALL_OUTCOMES)
    expect(APPROVAL_STATUSES).toEqual(SERVER_APPROVAL_STATUSES)
    expect(SIDE_EFFECT_LEVELS).toEqual(SERVER_SIDE_EFFECT_LEVELS)
  })
})
