// Group commit for the gateway's per-call statements: the first item goes at once; those added while
// its batch runs wait for it and then go together, one statement and one commit for all of them.
// Each caller still waits for its own item's answer, so nothing is answered before it is written. One
// batch at a time: with two, each held about half as many items (BENCHMARKS.md, "Gateway: cost per
// call").
import 'server-only'

/**
 * `run` gets the items in the order they were added and answers one result per item, in that order;
 * a batch that fails fails each of its items with the same error.
 */
export function oneBatchAtATime<T, R>(run: (items: T[]) => Promise<R[]>, maxBatch: number): (item: T) => Promise<R> {
  const queue: Array<{ item: T; resolve: (result: R) => void; reject: (e: unknown) => void }> = []
  let running = false
  const pump = () => {
    if (running || queue.length === 0) return
    running = true
    const batch = queue.splice(0, maxBatch)
    run(batch.map((b) => b.item))
      .then((results) => {
        if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} answered ${results.length} results`)
        batch.forEach((b, i) => b.resolve(results[i]))
      })
      .catch((e: unknown) => batch.forEach((b) => b.reject(e)))
      .finally(() => {
        running = false
        pump()
      })
  }
  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject })
      pump()
    })
}
