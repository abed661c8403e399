import { describe, expect, it } from 'vitest'
import { selectJobs } from '@/workers/select-jobs'
import { JOB_CONTRACTS } from '@/lib/jobs/job-contracts'

const jobs = JOB_CONTRACTS.map((contract) => ({ contract }))
const names = (picked: typeof jobs) => picked.map((j) => j.contract.name)

describe('TOOLROOM_WORKER_JOBS', () => {
  it('runs every job when unset or empty', () => {
    expect(names(selectJobs(jobs, undefined))).toEqual(JOB_CONTRACTS.map((c) => c.name))
    expect(names(selectJobs(jobs, ' , '))).toEqual(JOB_CONTRACTS.map((c) => c.name))
  })

  it('runs only the jobs named, spaces allowed', () => {
    expect(names(selectJobs(jobs, 'approvals.execute'))).toEqual(['approvals.execute'])
    expect(names(selectJobs(jobs, ' stats.rollup , approvals.execute ')).sort()).toEqual(['approvals.execute', 'stats.rollup'])
  })

  it('refuses a name that is no job, listing the jobs there are', () => {
    expect(() => selectJobs(jobs, 'approvals.execute,approval.execute')).toThrow(/names no job: approval\.execute \(jobs: .*approvals\.execute/)
  })
})
