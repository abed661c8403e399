// Arguments to start the explainer from, read off a tool's inputSchema instead of `{}`: every
// required field, with the schema's own example, default, const or first enum value where it gives
// one, else a placeholder of the field's type (and format). Optional fields are left out: the
// explainer is about what a call needs. Pure; bounded in depth, so a hostile schema cannot make it loop.

type Schema = Record<string, unknown>

const MAX_DEPTH = 6

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v)

const FORMAT_PLACEHOLDERS: Record<string, string> = {
  date: '2026-01-31',
  'date-time': '2026-01-31T12:00:00Z',
  time: '12:00:00',
  email: 'someone@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
}

/** One value the schema accepts, as a person would fill it in. */
export function exampleValue(schema: unknown, depth = 0): unknown {
  if (!isSchema(schema) || depth > MAX_DEPTH) return null
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if ('example' in schema) return schema.example
  if ('default' in schema) return schema.default
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  const variants = schema.oneOf ?? schema.anyOf
  if (Array.isArray(variants) && variants.length > 0) return exampleValue(variants[0], depth + 1)
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'object':
      return exampleObject(schema, depth + 1)
    case 'array': {
      const min = typeof schema.minItems === 'number' ? Math.min(schema.minItems, 3) : 0
      return Array.from({ length: min }, () => exampleValue(schema.items, depth + 1))
    }
    case 'string':
      return typeof schema.format === 'string' && FORMAT_PLACEHOLDERS[schema.format] ? FORMAT_PLACEHOLDERS[schema.format] : ''
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 0
    case 'boolean':
      return false
    default:
      return isSchema(schema.properties) ? exampleObject(schema, depth + 1) : null
  }
}

function exampleObject(schema: Schema, depth: number): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {}
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []
  const out: Record<string, unknown> = {}
  for (const name of required) out[name] = exampleValue(properties[name], depth)
  return out
}

/** The explainer's starting arguments for a tool, as the JSON text its field shows. */
export function exampleArguments(inputSchema: unknown): string {
  const value = isSchema(inputSchema) ? exampleValue(inputSchema) : {}
  const args = isSchema(value) ? value : {}
  return Object.keys(args).length === 0 ? '{}' : JSON.stringify(args, null, 2)
}
