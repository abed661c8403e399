// GET /api/health (lib/health/answer-health.ts): the database asked on the pool alone, or with
// `?deep=1` through the client the routes read with; any other value of `deep` refused, naming it.
import { describe, expect, it } from 'vitest'
import { GET } from '@/app/api/health/route'

const ask = (query: string) => GET(new Request(`http://toolroom.test/api/health${query}`))

describe('GET /api/health', () => {
  it('answers ok on the pool alone, and with ?deep=1 through the database client', async () => {
    for (const query of ['', '?deep=1', '?other=ignored']) {
      const answer = await ask(query)
      expect(answer.status, query).toBe(200)
      expect(await answer.json()).toEqual({ status: 'ok', database: 'ok' })
    }
  })

  it.each(['?deep=0', '?deep=true', '?deep=', '?deep=1%00', '?deep=1&deep=0', `?deep=${'1'.repeat(10_000)}`])(
    'refuses %s naming the field and its rule',
    async (query) => {
      const answer = await ask(query)
      expect(answer.status).toBe(422)
      expect(answer.headers.get('content-type')).toContain('application/problem+json')
      const problem = await answer.json()
      expect(problem.errors).toEqual([expect.objectContaining({ field: 'deep', rule: 'enum' })])
      // The value is not echoed back.
      expect(JSON.stringify(problem)).not.toContain('1'.repeat(100))
    },
  )
})
