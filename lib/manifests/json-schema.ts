// JSON Schema documents inside manifests (inputSchema, outputSchema) must be valid schemas: checked
// against the draft they declare (2020-12 unless `$schema` says draft-07) and compiled, so broken
// `$ref`s are caught at registration rather than at the first call, and with patterns RE2 can run
// (untrusted-ajv.ts), so none can freeze the gateway.
import { createUntrustedAjv, nonLinearPatternProblems } from './untrusted-ajv'

const ajv = createUntrustedAjv()

const MAX_SCHEMA_DEPTH = 32

// Discovery sees the same schemas again and again (every run of every server re-lists them), and
// compiling is the costly part: verdicts are kept by the schema's text.
const VERDICTS_KEPT = 5000
const verdicts = new Map<string, string[]>()

/** Returns problems with a JSON Schema, empty when it is usable as a tool schema. */
export function checkToolJsonSchema(schema: unknown, options: { requireObjectRoot: boolean }): string[] {
  let key: string
  try {
    key = `${options.requireObjectRoot ? 1 : 0}${JSON.stringify(schema)}`
  } catch {
    return ['must be a JSON Schema object']
  }
  const known = verdicts.get(key)
  if (known) return known
  const verdict = judgeToolJsonSchema(schema, options)
  if (verdicts.size >= VERDICTS_KEPT) verdicts.delete(verdicts.keys().next().value!)
  verdicts.set(key, verdict)
  return verdict
}

function judgeToolJsonSchema(schema: unknown, { requireObjectRoot }: { requireObjectRoot: boolean }): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return ['must be a JSON Schema object']
  if (depthOf(schema) > MAX_SCHEMA_DEPTH) return [`nests deeper than ${MAX_SCHEMA_DEPTH} levels`]
  const root = schema as Record<string, unknown>
  if (requireObjectRoot && root.type !== undefined && root.type !== 'object') {
    return [`root "type" must be "object" (MCP tool arguments are an object), not ${JSON.stringify(root.type)}`]
  }
  const nonLinear = nonLinearPatternProblems(root)
  if (nonLinear.length > 0) return nonLinear
  const valid = ajv.validateSchema(root)
  if (!valid) {
    return (ajv.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`.trim())
  }
  const candidate = { ...root, $id: undefined }
  try {
    ajv.compile(candidate)
  } catch (e) {
    return [(e as Error).message]
  } finally {
    // Ajv caches every compiled schema by object identity; these are one-off checks.
    ajv.removeSchema(candidate)
  }
  return []
}

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_SCHEMA_DEPTH) return depth
  if (typeof value !== 'object' || value === null) return depth
  let max = depth
  for (const child of Object.values(value)) max = Math.max(max, depthOf(child, depth + 1))
  return max
}
