// Stops a child process the way ours expect: SIGTERM lets it finish what it holds and exit in order;
// one still running after the grace period is killed.

/**
 * Resolves once the child has exited (at once if it already has).
 * @param {import('node:child_process').ChildProcess} child
 * @param {number} [graceMs]
 * @returns {Promise<void>}
 */
export function stopChild(child, graceMs = 15_000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs).unref()
    child.once('exit', () => {
      clearTimeout(kill)
      resolve()
    })
    child.kill('SIGTERM')
  })
}
