// Effective tool set of a stored agent or unit: load, then resolve.
import type { Row } from '@/lib/resources/kind-adapters'
import { loadResolverInput } from './load-resolver-input'
import { resolveEffectiveTools } from './resolve-effective-tools'
import type { EffectiveToolSet } from './types'

export async function getEffectiveTools(kind: 'Agent' | 'Unit', row: Row): Promise<EffectiveToolSet> {
  return resolveEffectiveTools(await loadResolverInput(kind, row))
}
