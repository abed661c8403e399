type NotYet = null | undefined | false

/**
 * Asks `probe` again and again until it answers something truthy, and returns that: for what another
 * process, a queue or a timer does in its own time. Fails naming `what` once `timeoutMs` have passed.
 */
export async function until<T>(what: string, probe: () => T | NotYet | Promise<T | NotYet>, { timeoutMs = 20_000, everyMs = 50 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
