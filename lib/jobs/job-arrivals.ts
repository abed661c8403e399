// Tells workers at once that a job is waiting in a queue someone waits on (an approved call: the
// approver, and perhaps the agent, watch it run), instead of leaving it to the workers' next poll.
// The queuing process NOTIFYs `toolroom_jobs` once pg-boss has committed the job; every worker
// LISTENs and fetches from that queue, or, for a job that starts later (an approval's undo window),
// sets a timer for when it may start (docs/design/approvals.md#running-it). A notification that is
// lost (a worker reconnecting) costs the wait for the next poll: polling stays the guarantee.
import 'server-only'
import pg from 'pg'

export const JOB_ARRIVALS_CHANNEL = 'toolroom_jobs'

export interface JobArrival {
  queue: string
  /** When the job may start, if later than now. */
  startAfter: Date | null
}

/** The NOTIFY payload for a job queued in `queue`. */
export function jobArrivalPayload(arrival: JobArrival): string {
  return JSON.stringify({ queue: arrival.queue, ...(arrival.startAfter ? { startAfter: arrival.startAfter.toISOString() } : {}) })
}

/** A payload read back; anything else on the channel is not ours and is ignored. */
export function parseJobArrival(payload: string | undefined): JobArrival | null {
  try {
    const value = JSON.parse(payload ?? '') as unknown
    if (typeof value !== 'object' || value === null) return null
    const { queue, startAfter } = value as Record<string, unknown>
    if (typeof queue !== 'string' || queue.length === 0 || queue.length > 200) return null
    const at = typeof startAfter === 'string' ? new Date(startAfter) : null
    return { queue, startAfter: at && Number.isFinite(at.getTime()) ? at : null }
  } catch {
    return null
  }
}

export interface JobArrivalListener {
  close(): Promise<void>
}

/**
 * LISTENs for job arrivals on a connection of its own, reconnecting after it is lost (`retryMs`
 * later) until closed. `onArrival` is called for each well-formed notification.
 */
export function listenForJobArrivals(
  connectionString: string | undefined,
  onArrival: (arrival: JobArrival) => void,
  options: { retryMs?: number; onError?: (error: Error) => void } = {},
): JobArrivalListener {
  const retryMs = options.retryMs ?? 1_000
  let closed = false
  let client: pg.Client | null = null
  let retry: ReturnType<typeof setTimeout> | undefined

  const lost = (error: Error) => {
    options.onError?.(error)
    client?.removeAllListeners()
    void client?.end().catch(() => {})
    client = null
    if (!closed) retry = setTimeout(connect, retryMs)
  }

  function connect() {
    if (closed) return
    const next = new pg.Client({ connectionString })
    client = next
    next.on('error', lost)
    next.on('end', () => client === next && lost(new Error('the job arrivals connection ended')))
    next.on('notification', (message) => {
      if (message.channel !== JOB_ARRIVALS_CHANNEL) return
      const arrival = parseJobArrival(message.payload)
      if (arrival) onArrival(arrival)
    })
    next
      .connect()
      .then(() => next.query(`LISTEN ${JOB_ARRIVALS_CHANNEL}`))
      .catch((e: Error) => client === next && lost(e))
  }

  connect()
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      const last = client
      client = null
      last?.removeAllListeners()
      await last?.end().catch(() => {})
    },
  }
}
