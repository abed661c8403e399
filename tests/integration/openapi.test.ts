import { describe, expect, it } from 'vitest'
import { ALL_CONTRACTS } from '@/lib/api/contracts'
import { openApiRoute } from '@/lib/api/openapi-route'
import { call } from './helpers'

describe('GET /api/v1/openapi.json', () => {
  it('describes every route of the API, generated from the contracts', async () => {
    const res = await call(openApiRoute, '/api/v1/openapi.json')
    expect(res.status).toBe(200)
    const doc = res.json
    expect(doc.openapi).toBe('3.1.0')
    for (const c of ALL_CONTRACTS) {
      const op = doc.paths[c.path]?.[c.method.toLowerCase()]
      expect(op, `${c.method} ${c.path}`).toBeDefined()
      expect(op.operationId).toBe(c.operationId)
      expect(Object.keys(op.responses)).toContain(String(c.successStatus ?? 200))
    }
    const operationIds = ALL_CONTRACTS.map((c) => c.operationId)
    expect(new Set(operationIds).size).toBe(operationIds.length)
    expect(doc.components.schemas.Problem).toBeDefined()
    expect(doc.components.schemas.EffectiveTool.properties.provenance).toBeDefined()
    expect(doc.components.schemas.ToolResource.properties.spec.properties.sideEffects).toBeDefined()
  })

  it('lists a route file for every contract path', async () => {
    const fs = await import('node:fs')
    for (const c of ALL_CONTRACTS) {
      const file = `app${c.path.replace(/\{(\w+)\}/g, '[$1]')}/route.ts`
      expect(fs.existsSync(file), file).toBe(true)
      const source = fs.readFileSync(file, 'utf8')
      expect(source, `${file} exports ${c.method}`).toMatch(new RegExp(`export const ${c.method}\\b`))
    }
  })
})
