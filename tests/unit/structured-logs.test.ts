import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { parseConfig } from '@/lib/config'
import { jsonLogs } from '@/lib/observability/logger'
import { SECRET_MASK } from '@/lib/secrets/mask-secret-values'
import { TSX_NODE_ARGS } from '@/scripts/tsx-node-args.mjs'

const run = (value: string, env: Record<string, string>) =>
  spawnSync(process.execPath, [...TSX_NODE_ARGS, 'tests/fixtures/structured-log-child.ts', value], { encoding: 'utf8', env: { ...process.env, ...env } })

describe('structured logs', () => {
  it('are JSON lines with level, time, role and the context of the work (request id, call id), with secret values masked', () => {
    const value = `s3cr3t-"quoted"-${Date.now()}`
    const child = run(value, { LOG_FORMAT: 'json' })
    expect(child.status, child.stderr).toBe(0)
    expect(child.stderr).toBe('')
    expect(child.stdout).not.toContain(value)
    expect(child.stdout).not.toContain(JSON.stringify(value).slice(1, -1))
    const lines = child.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines).toHaveLength(4)
    for (const line of lines) expect(line).toMatchObject({ role: 'gateway', level: expect.any(String), time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })
    expect(lines[0]).toMatchObject({
      level: 'info',
      requestId: 'req-1',
      callId: 'call-1',
      msg: `calling upstream with ${SECRET_MASK}`,
      header: `Bearer ${SECRET_MASK}`,
    })
    expect(lines[1]).toMatchObject({ level: 'info', msg: expect.stringContaining(`password: '${SECRET_MASK}'`) })
    expect(lines[2]).toMatchObject({ level: 'error', err: { type: 'Error', stack: expect.stringContaining('structured-log-child') } })
    expect(lines[2].msg).toContain(SECRET_MASK)
    expect(lines[3]).toMatchObject({ level: 'warn' })
  })

  it('are plain lines in text mode, errors on stderr, masked as well', () => {
    const value = `pl41n-secret-${Date.now()}`
    const child = run(value, { LOG_FORMAT: 'text' })
    expect(child.status, child.stderr).toBe(0)
    expect(child.stdout + child.stderr).not.toContain(value)
    expect(child.stdout).toContain(`[gateway] calling upstream with ${SECRET_MASK} (requestId=req-1 callId=call-1 header=Bearer ${SECRET_MASK})`)
    expect(child.stderr).toContain('[gateway] quoted')
  })

  it('carry the trace and span id of the span they are logged in (tracing on)', () => {
    // The endpoint answers nothing; the exporter gives up quickly and quietly.
    const child = run('unused-secret-value', { LOG_FORMAT: 'json', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_EXPORTER_OTLP_TIMEOUT: '200' })
    expect(child.status, child.stderr).toBe(0)
    const line = JSON.parse(child.stdout.trim().split('\n')[0])
    expect(line).toMatchObject({ msg: 'inside a span', traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/) })
  })

  it('are JSON when LOG_FORMAT=json or stdout is not a terminal; text when asked or on a terminal', () => {
    expect(jsonLogs(parseConfig({ LOG_FORMAT: 'json' }), true)).toBe(true)
    expect(jsonLogs(parseConfig({}), false)).toBe(true)
    expect(jsonLogs(parseConfig({}), true)).toBe(false)
    expect(jsonLogs(parseConfig({ LOG_FORMAT: 'text' }), false)).toBe(false)
    expect(jsonLogs(parseConfig({ LOG_FORMAT: 'TEXT' }), false)).toBe(false)
  })
})
