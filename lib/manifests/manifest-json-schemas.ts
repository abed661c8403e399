// The JSON Schema of every kind's metadata and spec, made from the same zod schemas Apply validates
// with, with the kind's apiVersions and aliases: what the Apply editor completes from (and what an
// editor's YAML plugin could be given). Cross-field rules (a rest Tool needs an endpoint) are not
// expressible here; Apply still checks them.
import { z } from 'zod'
import { KIND_ALIASES, KIND_DEFINITIONS, type Kind, KINDS, metadataSchema } from './kinds'

export interface KindSchema {
  kind: Kind
  aliases: string[]
  apiVersions: readonly string[]
  metadata: Record<string, unknown>
  spec: Record<string, unknown>
}

const toJsonSchema = (schema: z.ZodType) => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  return rest
}

let cached: KindSchema[] | null = null

export function manifestKindSchemas(): KindSchema[] {
  cached ??= KINDS.map((kind) => ({
    kind,
    aliases: Object.entries(KIND_ALIASES)
      .filter(([, k]) => k === kind)
      .map(([alias]) => alias),
    apiVersions: KIND_DEFINITIONS[kind].apiVersions,
    metadata: toJsonSchema(metadataSchema(kind)),
    spec: toJsonSchema(KIND_DEFINITIONS[kind].spec as z.ZodType),
  }))
  return cached
}
