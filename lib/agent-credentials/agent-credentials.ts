// Agent credentials: bearer tokens (`tra_…`) an agent presents to the gateway. The token is returned
// once at creation; only its hash and a hint are kept. Creating and revoking are audited.
import 'server-only'
import { forgetAgentCredentials } from '@/lib/auth/agent-identity-cache'
import { issueToken } from '@/lib/auth/secret-token'
import { recordAuditEvent, type AuditActor } from '@/lib/audit/record-audit-event'
import { prisma } from '@/lib/db'
import { AppError, notFound } from '@/lib/errors/app-error'
import type { Row } from '@/lib/resources/kind-adapters'
import { CREDENTIAL_SELECT as SELECT, credentialView, type CredentialView } from './credential-view'

/** Like API tokens: a credential nobody renews stops by itself; `expiresInDays: null` asks for one that never does. */
export const DEFAULT_AGENT_CREDENTIAL_DAYS = 90

export async function createAgentCredential(agent: Row, input: { name: string; expiresInDays?: number | null }, actor: AuditActor, requestId?: string) {
  const issued = issueToken('tra')
  const days = input.expiresInDays === undefined ? DEFAULT_AGENT_CREDENTIAL_DAYS : input.expiresInDays
  const expiresAt = days === null ? null : new Date(Date.now() + days * 86_400_000)
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.agentCredential.create({
      data: { agentId: agent.id, name: input.name, hash: issued.hash, hint: issued.hint, createdBy: actor.name, expiresAt },
      select: SELECT,
    })
    await recordAuditEvent(
      {
        actor,
        action: 'agent_credential.created',
        kind: 'Agent',
        namespace: agent.namespace,
        resource: agent.name,
        resourceId: agent.id,
        after: { id: created.id, name: created.name, hint: created.hint, expiresAt },
        requestId,
      },
      tx,
    )
    return created
  })
  return { ...credentialView(row), token: issued.token }
}

export async function listAgentCredentials(agent: Row): Promise<{ items: CredentialView[] }> {
  const rows = await prisma.agentCredential.findMany({ where: { agentId: agent.id }, orderBy: { createdAt: 'desc' }, select: SELECT })
  return { items: rows.map((r) => credentialView(r)) }
}

export async function revokeAgentCredential(agent: Row, credentialId: string, actor: AuditActor, requestId?: string): Promise<CredentialView> {
  const row = await prisma.$transaction(async (tx) => {
    const found = await tx.agentCredential.findFirst({ where: { id: credentialId, agentId: agent.id }, select: SELECT })
    if (!found) throw notFound(`credential ${credentialId} of agent "${agent.namespace}/${agent.name}"`)
    if (found.revokedAt) throw new AppError('CONFLICT', `credential "${found.name}" was already revoked at ${found.revokedAt.toISOString()}`)
    const revoked = await tx.agentCredential.update({ where: { id: credentialId }, data: { revokedAt: new Date() }, select: SELECT })
    await recordAuditEvent(
      {
        actor,
        action: 'agent_credential.revoked',
        kind: 'Agent',
        namespace: agent.namespace,
        resource: agent.name,
        resourceId: agent.id,
        before: { id: found.id, name: found.name, hint: found.hint },
        requestId,
      },
      tx,
    )
    return revoked
  })
  forgetAgentCredentials()
  return credentialView(row)
}
