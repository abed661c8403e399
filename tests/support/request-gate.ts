// Holds a test server's requests at a gate until released: a test lines up concurrent requests (two
// replicas refreshing one token) and then lets them through together.

export interface HeldGate {
  release(): void
  /** How many requests wait at it. */
  held(): number
}

export function requestGate() {
  let gate: { promise: Promise<void>; release(): void; waiting: number } | null = null
  return {
    /** Resolves at once when no gate is up, else when it is released. */
    async pass(): Promise<void> {
      const held = gate
      if (!held) return
      held.waiting++
      await held.promise
    },
    hold(): HeldGate {
      let release!: () => void
      const promise = new Promise<void>((resolve) => (release = resolve))
      const current = { promise, release, waiting: 0 }
      gate = current
      return {
        release: () => {
          if (gate === current) gate = null
          current.release()
        },
        held: () => current.waiting,
      }
    },
  }
}
