// Queues a discovery of every agent and server (as the sweep does) and exits.
import { enqueueDiscoveryOfEverything } from '@/lib/discovery/schedule-discovery'
import { stopBoss } from '@/lib/jobs/boss'

const queued = await enqueueDiscoveryOfEverything('manual')
await stopBoss()
console.log(JSON.stringify({ queued }))
process.exit(0)
