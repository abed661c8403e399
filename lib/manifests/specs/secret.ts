import { z } from '@/lib/http/zod'
import { evenWithFieldErrors, isPlainObject } from './common'

const secretKey = z.string().regex(/^[A-Za-z0-9._-]+$/, 'must be a key of letters, digits, ".", "_" or "-"')

/** The values of a Secret: plain in `stringData`, base64 in `data`. */
export const secretValueFields = {
  stringData: z.record(secretKey, z.string().max(65536)).optional(),
  data: z
    .record(
      secretKey,
      z
        .string()
        .max(87384)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
    )
    .optional(),
}

// Kubernetes-style: `stringData` holds plain values, `data` base64 ones. Either way the values are
// encrypted before they are stored and never returned. `keys` alone is what GET shows in their place:
// applied again, it keeps the values stored under exactly those keys (checked against what is stored,
// rule `secret-values` in check-manifest-rules.ts), so a Secret round-trips like every other kind.
export const secretSpec = z
  .strictObject({
    type: z.enum(['opaque', 'bearer', 'basic']).default('opaque'),
    ...secretValueFields,
    keys: z.array(secretKey).max(1000).optional(),
  })
  .superRefine((spec, ctx) => {
    const keysOf = (values: unknown) => (isPlainObject(values) ? Object.keys(values) : [])
    const keys = [...keysOf(spec.stringData), ...keysOf(spec.data)]
    // The refinement runs even when fields are invalid (evenWithFieldErrors): spec.keys may be anything.
    if (spec.keys !== undefined) {
      if (keys.length > 0)
        ctx.addIssue({
          code: 'custom',
          path: ['keys'],
          message:
            'spec.keys stands for the stored values and cannot come with new ones: send values in spec.stringData or spec.data, or spec.keys alone to keep the stored values',
          params: { rule: 'exclusive' },
        })
      else if (Array.isArray(spec.keys) && spec.keys.length === 0)
        ctx.addIssue({ code: 'custom', path: ['keys'], message: 'a secret has at least one key', params: { rule: 'required' } })
      if (Array.isArray(spec.keys) && new Set(spec.keys).size !== spec.keys.length)
        ctx.addIssue({ code: 'custom', path: ['keys'], message: 'a key appears twice in spec.keys', params: { rule: 'duplicate' } })
      return
    }
    // An invalid stringData or data is reported on its own; "needs a value" is for one given none.
    if (keys.length === 0 && [spec.stringData, spec.data].every((v) => v === undefined || isPlainObject(v)))
      ctx.addIssue({
        code: 'custom',
        path: ['stringData'],
        message: 'a secret needs at least one value in spec.stringData or spec.data (or spec.keys alone, to keep the values stored under those keys)',
        params: { rule: 'required' },
      })
    if (new Set(keys).size !== keys.length)
      ctx.addIssue({ code: 'custom', path: ['data'], message: 'a key appears in both spec.data and spec.stringData', params: { rule: 'duplicate' } })
  }, evenWithFieldErrors)

export type SecretSpec = z.infer<typeof secretSpec>

/** The key names a document that keeps its stored values names (`spec.keys` alone), or null when it carries values. */
export function keptSecretKeys(spec: SecretSpec): string[] | null {
  return spec.keys !== undefined ? [...spec.keys].sort() : null
}

export function secretValues(spec: SecretSpec): Record<string, string> {
  const values: Record<string, string> = { ...(spec.stringData ?? {}) }
  for (const [key, b64] of Object.entries(spec.data ?? {})) values[key] = Buffer.from(b64, 'base64').toString('utf8')
  return values
}
