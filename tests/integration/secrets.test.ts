import { randomBytes, randomUUID } from 'node:crypto'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { reloadConfig } from '@/lib/config'
import { ALL_CONTRACTS } from '@/lib/api/contracts'
import { applyRoute } from '@/lib/api/registry-routes'
import { resourceRoutes } from '@/lib/api/resource-routes'
import { secretRoutes } from '@/lib/api/secret-routes'
import { systemContext } from '@/lib/audit/audit-actor'
import { prisma } from '@/lib/db'
import { openClientSecret, sealClientSecret } from '@/lib/oauth/oauth-secrets'
import { openSecretValues, sealSecretValues } from '@/lib/secrets/encryption'
import { reencryptSecrets } from '@/lib/secrets/reencrypt-secrets'
import { SEALED_STORES } from '@/lib/secrets/sealed-stores'
import fs from 'node:fs'
import { readSecretValue } from '@/lib/secrets/read-secret-value'
import { call, resetDatabase, yaml } from './helpers'

const secrets = resourceRoutes('Secret')
const b64 = (s: string) => Buffer.from(s).toString('base64')
// Distinctive values, so a search for them cannot match anything else.
const VALUE = `s3cr3t-${randomBytes(12).toString('hex')}`
const DATA_VALUE = `d4t4-${randomBytes(12).toString('hex')}`
const ROTATED = `r0t4t3d-${randomBytes(12).toString('hex')}`
const ALL_VALUES = [VALUE, DATA_VALUE, ROTATED]

/** Every form a value could leak in: plain, base64 (with and without padding), base64url, JSON-escaped. */
function leaks(text: string): string[] {
  return ALL_VALUES.flatMap((v) => [v, b64(v), b64(v).replace(/=+$/, ''), Buffer.from(v).toString('base64url')]).filter((form) => text.includes(form))
}

const manifest = yaml`
apiVersion: toolroom.dev/v1alpha1
kind: Secret
metadata: { name: crm-token, labels: { team: crm } }
spec:
  type: bearer
  stringData: { token: ${VALUE} }
  data: { password: ${b64(DATA_VALUE)} }
---
apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: crm.lookup }
spec:
  type: rest
  description: Look a customer up.
  inputSchema: { type: object }
  endpoint: { method: GET, url: "https://crm.example/lookup", auth: { type: bearer, secretRef: { name: crm-token, key: token } } }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: helper }
spec: { image: "registry.test/helper:1", grants: [crm.lookup] }
---
apiVersion: toolroom.dev/v1alpha1
kind: Unit
metadata: { name: support }
spec: {}
---
apiVersion: toolroom.dev/v1alpha1
kind: LanguageTool
metadata: { name: mem }
spec: { image: "registry.test/mem:1", port: 8080, endpoint: "http://127.0.0.1:9/mcp" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Connector
metadata: { name: crm }
spec: { tools: [crm.lookup], languageTool: mem }
---
apiVersion: toolroom.dev/v1alpha1
kind: SideEffectPolicy
metadata: { name: read_only }
spec: { level: read_only, requiresApproval: false }
`

const answers: { what: string; text: string }[] = []
const keep = <R extends { status: number; text: string }>(what: string, res: R): R => {
  answers.push({ what, text: res.text })
  return res
}

describe('a Secret value never leaves the server', () => {
  beforeAll(async () => {
    await resetDatabase()
    const applied = keep('apply', await call(applyRoute, '/api/v1/apply', { method: 'POST', body: manifest }))
    expect(applied.status, applied.text).toBe(200)
  })

  it('is absent from the answers of writes and refused writes', async () => {
    keep('dry run', await call(applyRoute, '/api/v1/apply?dryRun=true', { method: 'POST', body: manifest }))
    keep('re-apply', await call(applyRoute, '/api/v1/apply', { method: 'POST', body: manifest }))
    const body = { metadata: { name: 'crm-token' }, spec: { stringData: { token: VALUE } } }
    expect(keep('duplicate create', await call(secrets.create, '/api/v1/secrets', { method: 'POST', body })).status).toBe(409)
    const invalid = { metadata: { name: 'other' }, spec: { stringData: { token: VALUE }, data: { token: b64(VALUE) } } }
    expect(keep('invalid create', await call(secrets.create, '/api/v1/secrets', { method: 'POST', body: invalid })).status).toBe(422)
    const broken = `${manifest}---\nkind: Tool\nmetadata: { name: Bad Id }\nspec: {}\n`
    expect(keep('refused apply', await call(applyRoute, '/api/v1/apply', { method: 'POST', body: broken })).status).toBe(422)
    const created = keep(
      'create',
      await call(secrets.create, '/api/v1/secrets', { method: 'POST', body: { metadata: { name: 'second' }, spec: { stringData: { v: VALUE } } } }),
    )
    expect(created.status).toBe(201)
    expect(created.json.spec).toEqual({ type: 'opaque', keys: ['v'] })
    const replaced = keep(
      'replace',
      await call(secrets.replace, '/api/v1/secrets/second', {
        method: 'PUT',
        params: { id: 'second' },
        body: { metadata: { name: 'second' }, spec: { stringData: { v: DATA_VALUE } } },
      }),
    )
    expect(replaced.status).toBe(200)
    expect(replaced.json.metadata.generation).toBe(2)
    expect(leaks(answers.map((a) => a.text).join('\n'))).toEqual([])
  })

  it('rotates in place: same id, name, labels and references, new values, generation + 1, audited without values', async () => {
    const before = await prisma.secret.findFirstOrThrow({ where: { name: 'crm-token' } })
    const res = keep(
      'rotate',
      await call(secretRoutes.rotate, '/api/v1/secrets/crm-token/rotate', {
        method: 'POST',
        params: { id: 'crm-token' },
        body: { stringData: { token: ROTATED, password: DATA_VALUE } },
      }),
    )
    expect(res.status, res.text).toBe(200)
    expect(res.json).toMatchObject({
      id: before.id,
      metadata: { name: 'crm-token', labels: { team: 'crm' }, generation: before.generation + 1 },
      spec: { type: 'bearer', keys: ['password', 'token'] },
    })
    expect(await readSecretValue({ name: 'crm-token', key: 'token' }, 'default')).toBe(ROTATED)
    const event = await prisma.auditEvent.findFirstOrThrow({ where: { action: 'secret.rotated', resourceId: before.id }, orderBy: { id: 'desc' } })
    expect(event).toMatchObject({ after: { spec: { type: 'bearer', keys: ['password', 'token'] } }, detail: { keyId: before.keyId, fromKeyId: before.keyId } })
    const unknown = keep(
      'rotate unknown',
      await call(secretRoutes.rotate, '/api/v1/secrets/nope/rotate', { method: 'POST', params: { id: 'nope' }, body: { stringData: { token: ROTATED } } }),
    )
    expect(unknown.status).toBe(404)
    const empty = await call(secretRoutes.rotate, '/api/v1/secrets/crm-token/rotate', { method: 'POST', params: { id: 'crm-token' }, body: {} })
    expect(empty.status).toBe(422)
    const extra = await call(secretRoutes.rotate, '/api/v1/secrets/crm-token/rotate', {
      method: 'POST',
      params: { id: 'crm-token' },
      body: { stringData: { token: 'x' }, type: 'basic' },
    })
    expect(extra.status).toBe(400 + 22)
    expect(leaks(answers.map((a) => a.text).join('\n'))).toEqual([])
  })

  it('is absent from every GET answer of the API (every contract, by id and by name), the audit log and its export', async () => {
    const ids: Record<string, string> = {}
    for (const [plural, model] of [
      ['tools', 'tool'],
      ['agents', 'agent'],
      ['units', 'unit'],
      ['languagetools', 'languageTool'],
      ['connectors', 'connector'],
      ['secrets', 'secret'],
      ['sideeffectpolicies', 'sideEffectPolicy'],
    ] as const)
      ids[plural] = (await (prisma[model] as unknown as { findFirstOrThrow(a?: object): Promise<{ id: string }> }).findFirstOrThrow()).id
    const gets = ALL_CONTRACTS.filter((c) => c.method === 'GET')
    expect(gets.length).toBeGreaterThan(20)
    for (const contract of gets) {
      const file = path.resolve('app', `.${contract.path.replace(/\{(\w+)\}/g, '[$1]')}`, 'route.ts')
      const handler = (await import(/* @vite-ignore */ file)).GET
      expect(handler, file).toBeTypeOf('function')
      const plural = contract.path.split('/')[3]
      // Other path parameters (tool ids, credential ids, …) get a stand-in: the answer must still not leak.
      const others = Object.fromEntries(
        [...contract.path.matchAll(/\{(\w+)\}/g)]
          .map((m) => m[1])
          .filter((n) => n !== 'id')
          .map((n) => [n, n === 'toolId' ? 'acme.echo' : '00000000-0000-4000-8000-000000000000']),
      )
      const variants = contract.path.includes('{id}')
        ? [{ ...others, id: ids[plural] ?? '00000000-0000-4000-8000-000000000000' }, ...(plural === 'secrets' ? [{ id: 'crm-token' }] : [])]
        : [others]
      for (const params of variants) {
        const url = contract.path.replace(/\{(\w+)\}/g, (_, n: string) => (params as Record<string, string>)[n] ?? '')
        const res = keep(`GET ${url}`, await call(handler, url, { params }))
        expect(res.status, `${url}: ${res.text.slice(0, 300)}`).toBeLessThan(500)
      }
    }
    // the lists with search and filters, and the audit log filtered to secrets
    keep('secret search', await call(secrets.list, '/api/v1/secrets?q=crm&label=team=crm'))
    expect(answers.some((a) => a.what === 'GET /api/v1/audit' && a.text.includes('crm-token'))).toBe(true)
    expect(answers.some((a) => a.what === 'GET /api/v1/audit/export' && a.text.includes('secret.rotated'))).toBe(true)
    expect(answers.some((a) => a.what === `GET /api/v1/secrets/${ids.secrets}` && a.text.includes('"keys"'))).toBe(true)
    expect(leaks(answers.map((a) => a.text).join('\n'))).toEqual([])
    // and from every stored audit row
    const rows = await prisma.auditEvent.findMany({ where: { kind: 'Secret' } })
    expect(rows.length).toBeGreaterThan(2)
    expect(leaks(JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? String(v) : v)))).toEqual([])
  })

  it('is masked in problem details when an error quotes it', async () => {
    const { problemFor } = await import('@/lib/errors/problem')
    const { AppError } = await import('@/lib/errors/app-error')
    // this process has opened the secret, so it knows the value to mask
    await readSecretValue({ name: 'crm-token', key: 'token' }, 'default')
    const problem = problemFor(
      new AppError('VALIDATION_FAILED', `upstream said: bad token ${ROTATED}`, [{ field: 'x', rule: 'r', message: `Bearer ${b64(ROTATED)}` }]),
    )
    expect(JSON.stringify(problem)).toContain('[secret]')
    expect(leaks(JSON.stringify(problem))).toEqual([])
  })
})

describe('key rotation', () => {
  const original = { key: process.env.TOOLROOM_SECRET_KEY, previous: process.env.TOOLROOM_SECRET_KEYS_PREVIOUS }
  afterEach(() => {
    process.env.TOOLROOM_SECRET_KEY = original.key
    if (original.previous === undefined) delete process.env.TOOLROOM_SECRET_KEYS_PREVIOUS
    else process.env.TOOLROOM_SECRET_KEYS_PREVIOUS = original.previous
    reloadConfig()
  })

  it('opens old secrets with a previous key, re-seals them all under the new key, and audits each', async () => {
    await resetDatabase()
    await call(applyRoute, '/api/v1/apply', { method: 'POST', body: manifest })
    const oldKeyId = (await prisma.secret.findFirstOrThrow()).keyId

    const newKey = randomBytes(32).toString('base64')
    process.env.TOOLROOM_SECRET_KEY = newKey
    reloadConfig()
    await expect(readSecretValue({ name: 'crm-token', key: 'token' }, 'default')).rejects.toThrow(
      /neither TOOLROOM_SECRET_KEY .* nor in TOOLROOM_SECRET_KEYS_PREVIOUS/,
    )

    process.env.TOOLROOM_SECRET_KEYS_PREVIOUS = `${randomBytes(32).toString('base64')},${original.key}`
    reloadConfig()
    expect(await readSecretValue({ name: 'crm-token', key: 'token' }, 'default')).toBe(VALUE)
    const report = await reencryptSecrets(systemContext('secrets:reencrypt'))
    expect(report).toMatchObject({ resealed: ['default/crm-token'], current: 0, failed: [] })
    const resealed = await prisma.secret.findFirstOrThrow({ where: { name: 'crm-token' } })
    expect(resealed.keyId).toBe(report.keyId)
    expect(resealed.keyId).not.toBe(oldKeyId)
    expect(resealed.generation).toBe(1)
    expect(await prisma.auditEvent.findFirst({ where: { action: 'secret.reencrypted', resourceId: resealed.id }, orderBy: { id: 'desc' } })).toMatchObject({
      actorKind: 'system',
      actorName: 'secrets:reencrypt',
      detail: { fromKeyId: oldKeyId, keyId: report.keyId },
    })
    // a second run finds nothing to do
    expect(await reencryptSecrets(systemContext('secrets:reencrypt'))).toMatchObject({ resealed: [], current: 1 })

    delete process.env.TOOLROOM_SECRET_KEYS_PREVIOUS
    reloadConfig()
    expect(await readSecretValue({ name: 'crm-token', key: 'password' }, 'default')).toBe(DATA_VALUE)
    // re-applying the same values under the new key is still a no-op
    expect((await call(applyRoute, '/api/v1/apply', { method: 'POST', body: manifest })).json.summary.unchanged).toBe(7)
  })

  it('re-seals every other sealed value too, so the old key can be dropped: webhook and OAuth client secrets, approvals, idempotent answers, upstream tokens and connections', async () => {
    await resetDatabase()
    const seal = (value: string) => {
      const { ciphertext, keyId } = sealSecretValues({ value })
      return { ciphertext: new Uint8Array(ciphertext), keyId }
    }
    const agentId = randomUUID()
    const webhook = await prisma.webhookEndpoint.create({
      data: {
        name: 'ops',
        url: 'https://hooks.example/ops',
        events: ['approval.requested'],
        ...(({ ciphertext, keyId }) => ({ secretCiphertext: ciphertext, keyId }))(seal('whsec')),
      },
    })
    const client = await prisma.oauthClient.create({
      data: { clientId: `c-${randomUUID()}`, clientSecret: sealClientSecret('client-secret'), redirectUris: [] },
    })
    const args = seal('{"amount":5}')
    const answer = seal('{"ok":true}')
    const heldSubject = seal('held-person-subject-token')
    const approval = await prisma.approvalRequest.create({
      data: {
        callId: randomUUID(),
        agentId,
        agentNamespace: 'default',
        agentName: 'helper',
        toolId: 'pay.charge',
        toolNamespace: 'pay',
        expiresAt: new Date(Date.now() + 3_600_000),
        argsSealed: args.ciphertext,
        argsKeyId: args.keyId,
        resultSealed: answer.ciphertext,
        resultKeyId: answer.keyId,
        subjectSealed: heldSubject.ciphertext,
        subjectKeyId: heldSubject.keyId,
      },
    })
    const idem = seal('{"answer":1}')
    await prisma.gatewayIdempotency.create({
      data: {
        agentId,
        toolId: 'pay.charge',
        key: 'k1',
        callId: randomUUID(),
        state: 'done',
        result: idem.ciphertext,
        keyId: idem.keyId,
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    })
    const subject = seal('person-subject-token')
    const delegation = await prisma.delegatedAccessToken.create({
      data: {
        hash: `h-${randomUUID()}`,
        agentId,
        credentialId: randomUUID(),
        identityProvider: 'default/corp',
        issuer: 'https://idp.example',
        subject: 'jane',
        displayName: 'Jane',
        resource: 'https://toolroom.example/mcp',
        subjectCiphertext: subject.ciphertext,
        subjectKeyId: subject.keyId,
        expiresAt: new Date(Date.now() + 600_000),
      },
    })
    const token = seal('upstream-access-token')
    await prisma.upstreamToken.create({ data: { key: 'token-1', ciphertext: token.ciphertext, keyId: token.keyId } })
    const connection = seal('connection-tokens')
    await prisma.upstreamConnection.create({
      data: {
        namespace: 'default',
        name: 'crm',
        configKey: 'c',
        authorizationServer: 'https://as.example',
        metadata: {},
        scopes: [],
        clientId: 'toolroom',
        ciphertext: connection.ciphertext,
        keyId: connection.keyId,
        connectedAt: new Date(),
        connectedBy: 'admin',
      },
    })
    const person = await prisma.user.create({ data: { name: 'Jane', email: `jane-${randomUUID()}@example.com` } })
    const own = seal('person-connection-tokens')
    await prisma.personConnection.create({
      data: {
        namespace: 'default',
        name: 'crm',
        userId: person.id,
        configKey: 'c',
        authorizationServer: 'https://as.example',
        metadata: {},
        scopes: [],
        clientId: 'toolroom',
        ciphertext: own.ciphertext,
        keyId: own.keyId,
        connectedAt: new Date(),
      },
    })
    const pending = seal('verifier')
    await prisma.upstreamAuthorization.create({
      data: {
        stateHash: 'h1',
        userId: 'u1',
        namespace: 'default',
        name: 'crm',
        configKey: 'c',
        authorizationServer: 'https://as.example',
        metadata: {},
        redirectUri: 'https://toolroom.example/cb',
        clientId: 'toolroom',
        ciphertext: pending.ciphertext,
        keyId: pending.keyId,
        expiresAt: new Date(Date.now() + 600_000),
      },
    })

    process.env.TOOLROOM_SECRET_KEY = randomBytes(32).toString('base64')
    process.env.TOOLROOM_SECRET_KEYS_PREVIOUS = original.key
    reloadConfig()
    const report = await reencryptSecrets(systemContext('secrets:reencrypt'))
    expect(report.failed).toEqual([])
    expect(report.others).toEqual(Object.fromEntries(SEALED_STORES.map((s) => [s.name, 1])))
    expect(await prisma.auditEvent.findFirst({ where: { action: 'sealed.reencrypted', resource: 'OauthClient.clientSecret' } })).toMatchObject({
      detail: { count: 1, keyId: report.keyId },
    })
    // A second run finds nothing to do.
    expect((await reencryptSecrets(systemContext('secrets:reencrypt'))).others).toEqual({})

    // The old key dropped: everything still opens.
    delete process.env.TOOLROOM_SECRET_KEYS_PREVIOUS
    reloadConfig()
    const openRow = (row: { ciphertext: Uint8Array | null; keyId: string | null }) => openSecretValues(row.ciphertext!, row.keyId!).value
    const w = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: webhook.id } })
    expect(openRow({ ciphertext: w.secretCiphertext, keyId: w.keyId })).toBe('whsec')
    expect(openClientSecret((await prisma.oauthClient.findUniqueOrThrow({ where: { id: client.id } })).clientSecret!)).toBe('client-secret')
    const a = await prisma.approvalRequest.findUniqueOrThrow({ where: { id: approval.id } })
    expect(openRow({ ciphertext: a.argsSealed, keyId: a.argsKeyId })).toBe('{"amount":5}')
    expect(openRow({ ciphertext: a.resultSealed, keyId: a.resultKeyId })).toBe('{"ok":true}')
    expect(openRow({ ciphertext: a.subjectSealed, keyId: a.subjectKeyId })).toBe('held-person-subject-token')
    const i = await prisma.gatewayIdempotency.findFirstOrThrow({ where: { agentId } })
    expect(openRow({ ciphertext: i.result, keyId: i.keyId })).toBe('{"answer":1}')
    const d = await prisma.delegatedAccessToken.findUniqueOrThrow({ where: { id: delegation.id } })
    expect(openRow({ ciphertext: d.subjectCiphertext, keyId: d.subjectKeyId })).toBe('person-subject-token')
    expect(openRow(await prisma.upstreamToken.findUniqueOrThrow({ where: { key: 'token-1' } }))).toBe('upstream-access-token')
    expect(openRow(await prisma.upstreamConnection.findFirstOrThrow({ where: { name: 'crm' } }))).toBe('connection-tokens')
    expect(openRow(await prisma.upstreamAuthorization.findUniqueOrThrow({ where: { stateHash: 'h1' } }))).toBe('verifier')
    expect(openRow(await prisma.personConnection.findFirstOrThrow({ where: { userId: person.id } }))).toBe('person-connection-tokens')
    // resetDatabase clears the registry only: these rows would be sealed under a key the next test lacks.
    await prisma.$transaction([
      prisma.webhookEndpoint.deleteMany(),
      prisma.oauthClient.deleteMany({ where: { id: client.id } }),
      prisma.approvalRequest.deleteMany({ where: { id: approval.id } }),
      prisma.gatewayIdempotency.deleteMany({ where: { agentId } }),
      prisma.delegatedAccessToken.deleteMany({ where: { id: delegation.id } }),
      prisma.upstreamToken.deleteMany(),
      prisma.upstreamConnection.deleteMany(),
      prisma.upstreamAuthorization.deleteMany(),
      prisma.user.deleteMany({ where: { id: person.id } }),
    ])
  })

  it('every sealed column of the schema is one the re-seal knows', () => {
    const schema = fs.readFileSync(path.resolve('prisma/schema.prisma'), 'utf8')
    const sealed: string[] = []
    for (const [, model, body] of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm))
      for (const [, column] of body.matchAll(/^\s+(\w+)\s+Bytes\??/gm)) sealed.push(`${model}.${column}`)
    sealed.push('OauthClient.clientSecret') // text: `keyId:base64` (lib/oauth/oauth-secrets.ts)
    const known = new Set(['Secret.ciphertext', ...SEALED_STORES.map((s) => s.name)])
    expect(sealed.filter((c) => !known.has(c))).toEqual([])
  })

  it('reports a secret sealed under a key it was not given', async () => {
    await resetDatabase()
    await call(applyRoute, '/api/v1/apply', { method: 'POST', body: manifest })
    process.env.TOOLROOM_SECRET_KEY = randomBytes(32).toString('base64')
    reloadConfig()
    const report = await reencryptSecrets(systemContext('secrets:reencrypt'))
    expect(report.resealed).toEqual([])
    expect(report.failed).toEqual([{ secret: 'default/crm-token', error: expect.stringMatching(/TOOLROOM_SECRET_KEYS_PREVIOUS/) }])
  })

  it('refuses a malformed key with a message naming the variable, and showing no key', () => {
    process.env.TOOLROOM_SECRET_KEYS_PREVIOUS = `${original.key},not-a-key`
    let message = ''
    try {
      reloadConfig()
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toMatch(
      /TOOLROOM_SECRET_KEYS_PREVIOUS must be a comma list of 32-byte keys, base64-encoded, got a value of \d+ characters \(a secret: not shown\): key 2 of 2 is not 32 bytes in base64/,
    )
    expect(message).not.toContain(original.key)
    expect(message).not.toContain('not-a-key')
  })
})
