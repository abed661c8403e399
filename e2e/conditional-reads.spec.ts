import { expect, test, type Response } from '@playwright/test'

// The portal's reads of registry answers revalidate through the browser's HTTP cache: the API sends
// them with an ETag and `Cache-Control: private, no-cache`, so when a page reads an answer again the
// browser asks with If-None-Match and the server's 304 spares the body (docs/design/resource-model.md#conditional-reads).
test('an agent page read again revalidates its answers: If-None-Match sent, no body received', async ({ page }) => {
  const list = await page.request.get('/api/v1/agents?limit=1')
  const { items } = (await list.json()) as { items: { id: string }[] }
  const agentAnswers: { url: string; status: number; ifNoneMatch?: string; etag?: string; cacheControl?: string; bodyBytes: number }[] = []
  const record = async (response: Response) => {
    if (response.request().resourceType() !== 'fetch' || !new URL(response.url()).pathname.startsWith(`/api/v1/agents/${items[0].id}`)) return
    const headers = await response.request().allHeaders()
    agentAnswers.push({
      url: response.url(),
      status: response.status(),
      ifNoneMatch: headers['if-none-match'],
      etag: (await response.allHeaders()).etag,
      cacheControl: (await response.allHeaders())['cache-control'],
      // What came over the network: a revalidated answer is shown with its cached status and body, but none of its body travelled.
      bodyBytes: (await response.request().sizes()).responseBodySize,
    })
  }
  // A response still being read when the test ends finds its page closed: it is no longer part of what
  // this test checks, so its reading is dropped rather than failing the test after it finished.
  page.on(
    'response',
    (response) =>
      void record(response).catch((e: Error) => {
        if (!page.isClosed()) throw e
      }),
  )

  // The page's reads answer in any order: wait for the answer this test is about (the agent's
  // effective tools), not merely the first one to arrive.
  const effectiveTools = (a: (typeof agentAnswers)[number]) => new URL(a.url).pathname.endsWith('/effective-tools')
  await page.goto(`/agents/${items[0].id}`)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect.poll(() => agentAnswers.some(effectiveTools), 'the agent page reads its effective tools').toBe(true)
  const first = agentAnswers.splice(0)
  expect(first.some((a) => a.status === 200 && a.etag?.startsWith('W/"') && a.cacheControl === 'private, no-cache')).toBe(true)

  await page.reload()
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  const revalidated = () => agentAnswers.find((a) => first.some((f) => f.url === a.url && f.etag && a.ifNoneMatch === f.etag))
  await expect
    .poll(() => revalidated() !== undefined, { message: 'a read of the same answer sent its ETag back' })
    .toBe(true)
    .catch((e: Error) => {
      throw new Error(`${e.message}\nfirst visit: ${JSON.stringify(first)}\nreload: ${JSON.stringify(agentAnswers)}`)
    })
  const again = revalidated()
  expect(first.find((f) => f.url === again!.url)!.bodyBytes).toBeGreaterThan(0)
  expect(again!.bodyBytes, 'the server answered 304: no body travelled').toBe(0)
})
