import { describe, expect, it } from 'vitest'
import { parseConfig } from '@/lib/config'
import { jobTraceparent } from '@/lib/jobs/enqueue'
import { metricsServerSettings } from '@/lib/observability/metrics-server'
import { tracingEndpoint } from '@/lib/observability/tracing'

describe('metrics server settings', () => {
  it('are off without TOOLROOM_METRICS_PORT, on loopback unless told, with the token when one is set', () => {
    const settings = (env: Record<string, string>) => metricsServerSettings(parseConfig(env))
    expect(settings({})).toBeNull()
    expect(settings({ TOOLROOM_METRICS_PORT: '' })).toBeNull()
    expect(settings({ TOOLROOM_METRICS_PORT: '9464' })).toEqual({ port: 9464, host: '127.0.0.1', token: undefined })
    expect(settings({ TOOLROOM_METRICS_PORT: '0', TOOLROOM_METRICS_HOST: '0.0.0.0', TOOLROOM_METRICS_TOKEN: 't' })).toEqual({
      port: 0,
      host: '0.0.0.0',
      token: 't',
    })
  })

  it('refuse a port that is none, naming the variable', () => {
    for (const bad of ['http', '-1', '65536', '9464.5', '1e3x', 'x'.repeat(10_000)])
      expect(() => parseConfig({ TOOLROOM_METRICS_PORT: bad }), bad).toThrow(/TOOLROOM_METRICS_PORT must be an integer from 0 to 65535/)
  })
})

describe('tracing settings', () => {
  it('trace only when an OTLP endpoint is set', () => {
    expect(tracingEndpoint(parseConfig({}))).toBeNull()
    expect(tracingEndpoint(parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toBe('http://collector:4318')
    expect(tracingEndpoint(parseConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }))).toBe('http://collector:4318/v1/traces')
  })
})

describe('trace context carried by jobs', () => {
  it('is taken only when it is a well-formed traceparent; anything else is dropped (empty), never continued', () => {
    const good = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
    expect(jobTraceparent({ id: 'x', _traceparent: good })).toBe(good)
    expect(jobTraceparent({ id: 'x' })).toBeUndefined()
    expect(jobTraceparent(null)).toBeUndefined()
    for (const bad of [42, '', 'garbage', `${good}\n`, good.toUpperCase(), { nested: good }, '00-' + 'a'.repeat(5000)])
      expect(jobTraceparent({ _traceparent: bad })).toBe('')
  })
})
