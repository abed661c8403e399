import { z } from '@/lib/http/zod'
import { evenWithFieldErrors, isPlainObject } from './common'

const secretKey = z.string().regex(/^[A-Za-z0-9._-]+$/, 'must be a key of letters, digits, ".", "_" or "-"')

/** The values of a Secret: plain in `stringData`, base64 in `data`. */
export const secretValueFields = {
  stringData: z.record(secretKey, z.string().max(65536)).optional(),
  data: z.record(secretKey, z.string().max(87384).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')).optional(),
}

// Kubernetes-style: `stringData` holds plain values, `data` base64 ones. Either way the values are
// encrypted before they are stored and never returned.
export const secretSpec = z
  .strictObject({
    type: z.enum(['opaque', 'bearer', 'basic']).default('opaque'),
    ...secretValueFields,
  })
  .superRefine((spec, ctx) => {
    const keysOf = (values: unknown) => (isPlainObject(values) ? Object.keys(values) : [])
    const keys = [...keysOf(spec.stringData), ...keysOf(spec.data)]
    // An invalid stringData or data is reported on its own; "needs a value" is for one given none.
    if (keys.length === 0 && [spec.stringData, spec.data].every((v) => v === undefined || isPlainObject(v)))
      ctx.addIssue({ code: 'custom', path: ['stringData'], message: 'a secret needs at least one value in spec.stringData or spec.data', params: { rule: 'required' } })
    if (new Set(keys).size !== keys.length)
      ctx.addIssue({ code: 'custom', path: ['data'], message: 'a key appears in both spec.data and spec.stringData', params: { rule: 'duplicate' } })
  }, evenWithFieldErrors)

export type SecretSpec = z.infer<typeof secretSpec>

export function secretValues(spec: SecretSpec): Record<string, string> {
  const values: Record<string, string> = { ...(spec.stringData ?? {}) }
  for (const [key, b64] of Object.entries(spec.data ?? {})) values[key] = Buffer.from(b64, 'base64').toString('utf8')
  return values
}
