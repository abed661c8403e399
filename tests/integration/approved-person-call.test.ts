// A held call acts, once approved, for the person it was asked for (docs/design/approvals.md#on-whose-behalf).
// The organisation's IdP and the upstream's authorization server are one real oidc-provider; the
// upstream is a REST service that takes only a person's token that server signed for it. An agent
// acting for a person (a tro_ token from token exchange at Toolroom) calls a tool that needs approval;
// the approver approves, and the worker's run (here in this process) must reach the upstream with the
// person's own token, exchanged from the request's own sealed copy of their subject token, even once
// the tro_ token is gone; and must not run, saying why, once that person may no longer be acted for.
import { decodeJwt, createRemoteJWKSet, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as approveApi from '@/app/api/v1/approvals/[id]/approve/route'
import * as denyApi from '@/app/api/v1/approvals/[id]/deny/route'
import * as oneApi from '@/app/api/v1/approvals/[id]/route'
import { executeApprovedCall } from '@/lib/approvals/execute-approved-call'
import { dropDeniedSubjectTokens, expireApprovals } from '@/lib/approvals/expire-approvals'
import { reloadConfig } from '@/lib/config'
import { prisma } from '@/lib/db'
import type { ApprovalRequest } from '@/lib/generated/prisma/client'
import { isSafeToRepeat, runApprovedCall } from '@/lib/gateway/call-tool'
import { updateCallOutcome } from '@/lib/gateway/record-call'
import { forgetUpstreamTokens } from '@/lib/upstream-auth/get-upstream-token'
import { agentClient } from '../support/gateway-fixtures'
import { listen, type Listening } from '../support/listen'
import { startTestIdp, type TestIdp } from '../support/oidc-idp'
import { startWebApp, type WebApp } from '../support/web-app'
import { applyManifest, call, issueAgentCredential, resetDatabase } from './helpers'
import { troToken } from '../support/token-exchange'

// The agent is told at once that its call is held; decisions take effect at once.
process.env.TOOLROOM_APPROVAL_WAIT_SECONDS = '0'
process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '0'
reloadConfig()

const GATEWAY_AUDIENCE = 'toolroom-gateway'
const CLIENT_SECRET = 'held-exchange-secret-UNMISTAKABLE-71c4'
const LEDGER_RESOURCE = 'https://ledger.example.com'

let app: WebApp
let idp: TestIdp
let ledger: Listening & { subjects: string[] }
let agentToken: string

type Someone = { subject: string; claims: { name: string; email: string } }
const jane: Someone = { subject: 'jane-0042', claims: { name: 'Jane Doe', email: 'jane.doe@corp.test' } }

/** The upstream: books a payment for whoever's token it is shown, and notes their subject. */
async function startLedger(): Promise<Listening & { subjects: string[] }> {
  const subjects: string[] = []
  const keys = createRemoteJWKSet(new URL(`${idp.issuer}/jwks`))
  const running = await listen(async (req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''
    const send = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: idp.issuer, audience: LEDGER_RESOURCE })
      subjects.push(String(payload.sub))
      send(200, { bookedFor: payload.sub })
    } catch {
      send(401, { error: 'invalid_token' })
    }
  })
  return { ...running, subjects }
}

const exchangeAtToolroom = (subjectToken: string) => troToken(app.url, { subjectToken, actorToken: agentToken })

/** The agent, acting for `person`, books a payment: the call is held; its approval request. */
async function heldFor(person: Someone): Promise<{ approval: ApprovalRequest; subjectToken: string; tro: string }> {
  const subjectToken = await idp.personToken(person, { audience: GATEWAY_AUDIENCE })
  const tro = await exchangeAtToolroom(subjectToken)
  const client = await agentClient(app.url, tro)
  try {
    const held = await client.callTool({ name: 'ledger.book', arguments: { amount: 120 } })
    expect(held.structuredContent, JSON.stringify(held)).toMatchObject({ status: 'approval_required' })
    const callId = (held.structuredContent as { callId: string }).callId
    return { approval: await prisma.approvalRequest.findUniqueOrThrow({ where: { callId } }), subjectToken, tro }
  } finally {
    await client.close()
  }
}

/** An approver approves; the worker runs the call (workers/jobs/execute-approved-call.ts, here in this process). */
async function approveAndRun(approval: ApprovalRequest) {
  const approved = await call(approveApi.POST, `/api/v1/approvals/${approval.id}/approve`, { method: 'POST', params: { id: approval.id }, body: {} })
  expect(approved.status, approved.text).toBe(200)
  const ran = await executeApprovedCall(approval.id, 1, {
    run: (a, args, key) => runApprovedCall(a, (args ?? {}) as Record<string, unknown>, key),
    safeToRepeat: (a) => isSafeToRepeat(a),
    abandon: (a, reason) =>
      updateCallOutcome(a.callId, { outcome: 'failed', errorCode: 'interrupted', errorMessage: reason, latencyMs: null, attempts: 1, result: null }),
  })
  expect(ran).toBe('executed')
  return {
    approval: await prisma.approvalRequest.findUniqueOrThrow({ where: { id: approval.id } }),
    call: await prisma.toolCall.findFirstOrThrow({ where: { id: approval.callId } }),
  }
}

/** No exchanged token cached anywhere: the next run must exchange a subject token again. */
async function forgetExchangedTokens() {
  forgetUpstreamTokens()
  await prisma.upstreamToken.deleteMany()
}

beforeAll(async () => {
  await resetDatabase()
  await prisma.$executeRawUnsafe(
    'TRUNCATE "UpstreamToken", "ToolCall", "ApprovalRequest", "IdentityProvider", "DelegatedAccessToken", "SubjectTokenUse" CASCADE',
  )
  idp = await startTestIdp([{ clientId: 'toolroom', clientSecret: CLIENT_SECRET }], [])
  ledger = await startLedger()
  app = await startWebApp()
  await applyManifest(`
apiVersion: toolroom.dev/v1alpha1
kind: IdentityProvider
metadata: { name: corp-sso }
spec: { issuer: "${idp.issuer}", audiences: [${GATEWAY_AUDIENCE}], emailClaim: email }
---
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: idp-client, namespace: hx }
spec: { stringData: { secret: "${CLIENT_SECRET}" } }
---
apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: financial, namespace: hx }
spec: { level: financial, requiresApproval: true, approvalExpirySeconds: 86400 }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ledger.book, namespace: hx }
spec:
  type: rest
  description: Books a payment for the person the call is made for
  endpoint:
    method: POST
    url: "${ledger.url}/book"
    auth:
      type: oauth2
      oauth2: { grantType: token_exchange, issuer: "${idp.issuer}", clientId: toolroom, clientSecretRef: { name: idp-client }, resource: "${LEDGER_RESOURCE}" }
  inputSchema: { type: object, properties: { amount: { type: number } } }
  sideEffects: { level: financial }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: clerk, namespace: hx }
spec:
  grants: [ledger.book]
`)
  const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'hx', name: 'clerk' } } })
  agentToken = await issueAgentCredential(agent.id)
}, 60_000)

afterAll(async () => {
  await app?.close()
  await ledger?.close()
  await idp?.close()
})

describe('a held call for a person, once approved', () => {
  it("reaches a token_exchange upstream with the person's own token, and its sealed copy is gone after the run", async () => {
    const { approval, subjectToken } = await heldFor(jane)
    expect(approval).toMatchObject({ onBehalfOfSubject: 'jane-0042', onBehalfOfVia: 'token_exchange' })
    expect(approval.subjectSealed, 'the request keeps its own sealed copy').not.toBeNull()
    expect(Buffer.from(approval.subjectSealed!).toString('latin1')).not.toContain(subjectToken)
    expect(approval.subjectExpiresAt!.getTime()).toBe(decodeJwt(subjectToken).exp! * 1000)

    // The approver sees for whom, and until when the call can still act for them.
    const shown = await call(oneApi.GET, `/api/v1/approvals/${approval.id}`, { params: { id: approval.id } })
    expect(shown.status, shown.text).toBe(200)
    expect(shown.json.onBehalfOf).toMatchObject({ subject: 'jane-0042', displayName: 'Jane Doe' })
    expect(shown.json.onBehalfOfUntil).toBe(approval.subjectExpiresAt!.toISOString())
    expect(shown.text).not.toContain(subjectToken)
    expect(shown.text).not.toMatch(/subjectSealed|subjectKeyId/)

    await forgetExchangedTokens()
    const before = idp.exchanges()
    const seen = ledger.subjects.length
    const { approval: after, call: record } = await approveAndRun(approval)
    expect(record, JSON.stringify(record)).toMatchObject({ outcome: 'succeeded', onBehalfOfSubject: 'jane-0042' })
    expect(ledger.subjects.slice(seen)).toEqual(['jane-0042'])
    expect(idp.exchanges()).toBe(before + 1)
    expect(after).toMatchObject({ execution: 'succeeded', subjectSealed: null, subjectKeyId: null })
  })

  it('runs from its own copy once the tro_ token and its row are gone', async () => {
    const bob: Someone = { subject: 'bob-0007', claims: { name: 'Bob Roe', email: 'bob.roe@corp.test' } }
    const { approval } = await heldFor(bob)
    // The tro_ token expired and was swept (an exchange deletes rows past their expiry).
    expect((await prisma.delegatedAccessToken.deleteMany({ where: { id: approval.delegationId! } })).count).toBe(1)
    await forgetExchangedTokens()
    const seen = ledger.subjects.length
    const { approval: after, call: record } = await approveAndRun(approval)
    expect(record, JSON.stringify(record)).toMatchObject({ outcome: 'succeeded', onBehalfOfSubject: 'bob-0007' })
    expect(ledger.subjects.slice(seen)).toEqual(['bob-0007'])
    expect(after.subjectSealed).toBeNull()
  })

  it("fails, saying so, when the person's subject token expired before the approval, and sends nothing", async () => {
    const carol: Someone = { subject: 'carol-0003', claims: { name: 'Carol Poe', email: 'carol@corp.test' } }
    const { approval } = await heldFor(carol)
    // Time passes: the subject token's expiry is behind us when the approver decides.
    const expiredAt = new Date(Date.now() - 60_000)
    await prisma.approvalRequest.update({ where: { id: approval.id }, data: { subjectExpiresAt: expiredAt } })
    await forgetExchangedTokens()
    const seen = ledger.subjects.length
    const exchanges = idp.exchanges()
    const { approval: after, call: record } = await approveAndRun(approval)
    expect(after).toMatchObject({ status: 'approved', decidedByName: expect.any(String), execution: 'failed', subjectSealed: null })
    expect(after.executionError).toMatch(/Carol Poe's token from their identity provider expired at .*did not run/)
    expect(record).toMatchObject({ outcome: 'failed', errorCode: 'person_token_expired', onBehalfOfSubject: 'carol-0003' })
    expect(record.errorMessage).toContain(expiredAt.toISOString())
    expect(ledger.subjects.length, 'nothing reached the upstream').toBe(seen)
    expect(idp.exchanges(), 'nothing was exchanged').toBe(exchanges)
  })

  it('is refused when the person was disabled between the hold and the approval', async () => {
    const dave: Someone = { subject: 'dave-0011', claims: { name: 'Dave Lo', email: 'dave.lo@corp.test' } }
    const user = await prisma.user.create({ data: { name: 'Dave Lo', email: 'dave.lo@corp.test', role: 'viewer' } })
    const { approval } = await heldFor(dave)
    expect(approval.personUserId).toBe(user.id)
    await prisma.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } })
    const seen = ledger.subjects.length
    const { approval: after, call: record } = await approveAndRun(approval)
    expect(record).toMatchObject({ outcome: 'failed', errorCode: 'person_unavailable' })
    expect(record.errorMessage).toMatch(/Dave Lo is disabled or was removed in Toolroom, so the approved call did not run/)
    expect(after).toMatchObject({ execution: 'failed', subjectSealed: null })
    expect(ledger.subjects.length, 'nothing reached the upstream').toBe(seen)
  })

  it("is refused once the agent's credential that acted for the person is revoked", async () => {
    const erin: Someone = { subject: 'erin-0005', claims: { name: 'Erin Fox', email: 'erin@corp.test' } }
    const { approval } = await heldFor(erin)
    await prisma.agentCredential.update({ where: { id: approval.delegationCredentialId! }, data: { revokedAt: new Date() } })
    try {
      const seen = ledger.subjects.length
      const { call: record } = await approveAndRun(approval)
      expect(record).toMatchObject({ outcome: 'failed', errorCode: 'person_unavailable' })
      expect(record.errorMessage).toMatch(/the agent credential that acted for Erin Fox was revoked/)
      expect(ledger.subjects.length).toBe(seen)
    } finally {
      await prisma.agentCredential.update({ where: { id: approval.delegationCredentialId! }, data: { revokedAt: null } })
    }
  })

  it('drops the sealed copy when the request is denied or expires', async () => {
    const denied = (await heldFor({ subject: 'fay-0013', claims: { name: 'Fay Wu', email: 'fay@corp.test' } })).approval
    expect(denied.subjectSealed).not.toBeNull()
    const res = await call(denyApi.POST, `/api/v1/approvals/${denied.id}/deny`, { method: 'POST', params: { id: denied.id }, body: {} })
    expect(res.status, res.text).toBe(200)
    // Kept while the denial can still be undone (back to pending, and perhaps approved); dropped by the sweep once it took effect (here at once).
    expect((await prisma.approvalRequest.findUniqueOrThrow({ where: { id: denied.id } })).subjectSealed).not.toBeNull()
    await dropDeniedSubjectTokens()
    expect(await prisma.approvalRequest.findUniqueOrThrow({ where: { id: denied.id } })).toMatchObject({ status: 'denied', subjectSealed: null })

    const lapsed = (await heldFor({ subject: 'gus-0017', claims: { name: 'Gus Ng', email: 'gus@corp.test' } })).approval
    expect(lapsed.subjectSealed).not.toBeNull()
    await prisma.approvalRequest.update({ where: { id: lapsed.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    await expireApprovals()
    expect(await prisma.approvalRequest.findUniqueOrThrow({ where: { id: lapsed.id } })).toMatchObject({ status: 'expired', subjectSealed: null })
  })

  it('is asked of the Policies as they are now, with the person as the call had them (groups and claims)', async () => {
    type Grouped = { subject: string; claims: Someone['claims'] & { groups: string[] } }
    const ivy: Grouped = { subject: 'ivy-0019', claims: { name: 'Ivy Moss', email: 'ivy@corp.test', groups: ['contractors'] } }
    const hank: Grouped = { subject: 'hank-0023', claims: { name: 'Hank Oyo', email: 'hank@corp.test', groups: ['staff'] } }
    const ivyHeld = (await heldFor(ivy)).approval
    const hankHeld = (await heldFor(hank)).approval
    // Applied after both calls were held: only the run can apply it, and only if it knows the person.
    await applyManifest(`
apiVersion: toolroom.dev/v1alpha1
kind: Policy
metadata: { name: no-contractor-payments, namespace: hx }
spec:
  selector: { tools: [ledger.book] }
  rules:
    - when: "person != null && 'contractors' in person.groups"
      effect: deny
      reason: Contractors do not book payments
`)
    try {
      const seen = ledger.subjects.length
      const ivyRun = await approveAndRun(ivyHeld)
      expect(ivyRun.call, JSON.stringify(ivyRun.call)).toMatchObject({ outcome: 'denied', onBehalfOfSubject: 'ivy-0019' })
      expect(ivyRun.call.errorMessage).toContain('Contractors do not book payments')
      expect(ledger.subjects.length, 'nothing reached the upstream for Ivy').toBe(seen)
      const hankRun = await approveAndRun(hankHeld)
      expect(hankRun.call, JSON.stringify(hankRun.call)).toMatchObject({ outcome: 'succeeded', onBehalfOfSubject: 'hank-0023' })
      expect(ledger.subjects.slice(seen)).toEqual(['hank-0023'])
    } finally {
      await prisma.policy.deleteMany({ where: { namespace: 'hx', name: 'no-contractor-payments' } })
    }
  })
})
