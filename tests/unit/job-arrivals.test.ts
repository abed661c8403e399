// What a worker reads from the job arrivals channel: only its own payloads, anything else ignored
// (the channel is a name any database user can NOTIFY on).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jobArrivalPayload, parseJobArrival } from '@/lib/jobs/job-arrivals'

describe('job arrival payloads', () => {
  it('read back what was written, with or without a start', () => {
    const at = new Date('2026-11-28T01:02:03.456Z')
    expect(parseJobArrival(jobArrivalPayload({ queue: 'approvals.execute', startAfter: null }))).toEqual({ queue: 'approvals.execute', startAfter: null })
    expect(parseJobArrival(jobArrivalPayload({ queue: 'approvals.execute', startAfter: at }))).toEqual({ queue: 'approvals.execute', startAfter: at })
  })

  it('ignore anything else: not JSON, not an object, no queue, an oversized queue; an unreadable start is no start', () => {
    for (const payload of [
      undefined,
      '',
      'approvals.execute',
      '[]',
      'null',
      '42',
      '{}',
      '{"queue":""}',
      '{"queue":7}',
      JSON.stringify({ queue: 'q'.repeat(201) }),
    ])
      expect(parseJobArrival(payload), String(payload)).toBeNull()
    expect(parseJobArrival('{"queue":"q","startAfter":"tomorrow"}')).toEqual({ queue: 'q', startAfter: null })
    expect(parseJobArrival('{"queue":"q","startAfter":12}')).toEqual({ queue: 'q', startAfter: null })
  })

  it('never throw, whatever arrives', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (payload) => void parseJobArrival(payload)))
  })
})
