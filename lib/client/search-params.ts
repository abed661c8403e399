// Next hands pages their search params as string | string[]; the portal's filters are single-valued.
export type SearchParams = Record<string, string | string[] | undefined>

export function firstParams(params: SearchParams): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(params)) {
    const value = Array.isArray(v) ? v[0] : v
    if (typeof value === 'string') out[k] = value
  }
  return out
}

export function firstParam(params: SearchParams, key: string): string | undefined {
  const v = params[key]
  return Array.isArray(v) ? v[0] : v
}
