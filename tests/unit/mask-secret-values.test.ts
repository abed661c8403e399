import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { MIN_MASKED_LENGTH, maskSecretValues, noteSecretValues, SECRET_MASK } from '@/lib/secrets/mask-secret-values'
import { TSX_NODE_ARGS } from '@/scripts/tsx-node-args.mjs'

describe('maskSecretValues', () => {
  it('masks a noted value in plain, base64, base64url and JSON-escaped forms, longest first', () => {
    noteSecretValues(['hunter2-abc', 'quote"d-value/+?'])
    const b64 = Buffer.from('hunter2-abc').toString('base64')
    expect(maskSecretValues(`token=hunter2-abc, b64=${b64}, json=${JSON.stringify({ v: 'quote"d-value/+?' })}`)).toBe(
      `token=${SECRET_MASK}, b64=${SECRET_MASK}, json={"v":"${SECRET_MASK}"}`,
    )
    expect(maskSecretValues(Buffer.from('quote"d-value/+?').toString('base64url'))).toBe(SECRET_MASK)
  })

  it('leaves short values and unrelated text alone', () => {
    noteSecretValues(['x'.repeat(MIN_MASKED_LENGTH - 1)])
    expect(maskSecretValues(`a ${'x'.repeat(MIN_MASKED_LENGTH - 1)} b`)).toBe(`a ${'x'.repeat(MIN_MASKED_LENGTH - 1)} b`)
  })
})

describe('installLogMasking', () => {
  it('masks console output and direct stream writes of a process, including error stacks', () => {
    const value = `pa55w0rd-${Date.now()}`
    const child = spawnSync(process.execPath, [...TSX_NODE_ARGS, 'tests/fixtures/log-masking-child.ts', value], { encoding: 'utf8' })
    expect(child.status, child.stderr).toBe(0)
    const [out, err] = [child.stdout, child.stderr]
    expect(err).toContain('upstream refused Bearer [secret]')
    expect(err).toContain('b64 [secret]')
    expect(out).toContain(`password: '${SECRET_MASK}'`)
    expect(out).toContain(`raw ${SECRET_MASK}`)
    expect(out + err).not.toContain(value)
    expect(out + err).not.toContain(Buffer.from(value).toString('base64'))
  })
})
