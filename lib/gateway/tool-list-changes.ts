// Tells connected agents that their tool list changed. Every gateway process LISTENs to the
// registry's own NOTIFY (lib/registry/registry-changes.ts), so a change committed anywhere (the API,
// Apply, a discovery worker) reaches the agents connected to any process, with no state shared
// between gateways. After each change, the tools/list answer of every watched agent the change may
// have touched is worked out again and compared with the last one: only agents whose list is
// different hear about it (the shared change feed, lib/registry/change-feed.ts).
import 'server-only'
import { createHash } from 'node:crypto'
import { storedAnswerDependencies } from '@/lib/effective-tools/answer-dependencies'
import { watchSubject } from '@/lib/registry/change-feed'
import { agentTools } from './agent-tools'

async function fingerprintOf(agentId: string): Promise<string> {
  const tools = await agentTools(agentId)
  return createHash('sha256')
    .update(tools ? JSON.stringify(tools.list) : 'no such agent')
    .digest('base64url')
}

/**
 * Calls `listener` whenever the tools/list answer of `agentId` changes, in any process, until the
 * returned function is called.
 */
export function watchToolList(agentId: string, listener: () => void): () => void {
  return watchSubject(
    `tools/list:${agentId}`,
    async () => {
      const [fingerprint, dependsOn] = await Promise.all([fingerprintOf(agentId), storedAnswerDependencies('Agent', agentId)])
      return { fingerprint, dependsOn }
    },
    listener,
  )
}
