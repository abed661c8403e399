// TOOLROOM_WORKER_JOBS narrows a worker process to some jobs (the job names of its comma list, from
// lib/config.ts; unset or empty: every job). A test that needs one kind of job run, and nothing else touching its database,
// starts a worker this way; so can an operator who wants, say, approved calls on their own workers.
// A name that is no job stops the worker at start-up rather than leaving that queue silently unserved.

export function selectJobs<J extends { contract: { name: string } }>(jobs: readonly J[], names: readonly string[] = []): J[] {
  if (names.length === 0) return [...jobs]
  const known = new Set(jobs.map((j) => j.contract.name))
  const unknown = names.filter((n) => !known.has(n))
  if (unknown.length > 0) throw new Error(`TOOLROOM_WORKER_JOBS names no job: ${unknown.join(', ')} (jobs: ${[...known].join(', ')})`)
  return jobs.filter((j) => names.includes(j.contract.name))
}
