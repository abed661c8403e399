// A small seeded PRNG (mulberry32): case `i` of a run with seed `s` is generated from its own stream,
// so any single case can be replayed (`npm run fuzz -- --seed s --case i`) whatever the concurrency.
export function rngFor(seed, index) {
  let a = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    /** Picks a key of `weights` ({ name: weight }) in proportion to its weight. */
    weighted: (weights) => {
      const entries = Object.entries(weights)
      let r = next() * entries.reduce((sum, [, w]) => sum + w, 0)
      for (const [key, w] of entries) if ((r -= w) < 0) return key
      return entries[entries.length - 1][0]
    },
  }
  return rng
}
