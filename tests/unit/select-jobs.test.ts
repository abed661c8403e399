import { describe, expect, it } from 'vitest'
import { parseConfig } from '@/lib/config'
import { selectJobs } from '@/workers/select-jobs'
import { JOB_CONTRACTS } from '@/lib/jobs/job-contracts'

const jobs = JOB_CONTRACTS.map((contract) => ({ contract }))
const picked = (value: string | undefined) => selectJobs(jobs, parseConfig({ TOOLROOM_WORKER_JOBS: value }).TOOLROOM_WORKER_JOBS).map((j) => j.contract.name)

describe('TOOLROOM_WORKER_JOBS', () => {
  it('runs every job when unset or empty', () => {
    expect(picked(undefined)).toEqual(JOB_CONTRACTS.map((c) => c.name))
    expect(picked(' , ')).toEqual(JOB_CONTRACTS.map((c) => c.name))
  })

  it('runs only the jobs named, spaces allowed', () => {
    expect(picked('approvals.execute')).toEqual(['approvals.execute'])
    expect(picked(' stats.rollup , approvals.execute ').sort()).toEqual(['approvals.execute', 'stats.rollup'])
  })

  it('refuses a name that is no job, listing the jobs there are', () => {
    expect(() => picked('approvals.execute,approval.execute')).toThrow(/names no job: approval\.execute \(jobs: .*approvals\.execute/)
  })
})
