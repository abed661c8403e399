import { expect, test } from '@playwright/test'

// A browser asks for gzip with every request. A watch's events must still reach it one by one as they
// happen: a compressed stream is held back by the compressor (and by proxies) until enough bytes pile
// up, and costs CPU per event. The stream says `Cache-Control: no-transform`, which the production
// server's compression honours (docs/design/resource-model.md#watch).
test('a watch reaches a browser that accepts gzip uncompressed, its first event whole while the stream stays open', async ({ page }) => {
  const list = await page.request.get('/api/v1/agents?limit=1')
  const { items } = (await list.json()) as { items: { id: string }[] }
  const watchUrl = `/api/v1/agents/${items[0].id}/effective-tools?watch=1&events=notices`
  // From a portal page: the API's own answers forbid their documents any fetch (their CSP), a page does not.
  await page.goto('/', { waitUntil: 'domcontentloaded' })
  const asked = page.waitForRequest((request) => request.url().endsWith(watchUrl))
  const seen = await page.evaluate(async (url) => {
    const stop = new AbortController()
    const response = await fetch(url, { signal: stop.signal })
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    let ended = false
    // Up to the end of the first event (a blank line), never to the end of the stream, which a watch does not reach.
    while (!text.includes('\n\n')) {
      const { value, done } = await reader.read()
      if (done) {
        ended = true
        break
      }
      text += decoder.decode(value, { stream: true })
    }
    stop.abort()
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      cacheControl: response.headers.get('cache-control'),
      contentEncoding: response.headers.get('content-encoding'),
      firstEvent: text.slice(0, text.indexOf('\n\n')),
      ended,
    }
  }, watchUrl)
  expect((await (await asked).allHeaders())['accept-encoding'], 'the browser asked for gzip').toContain('gzip')
  expect(seen).toMatchObject({ status: 200, contentType: 'text/event-stream', contentEncoding: null, ended: false })
  expect(seen.cacheControl).toContain('no-transform')
  const [event, id, data] = seen.firstEvent.split('\n')
  expect([event, id.startsWith('id: '), data.startsWith('data: ')]).toEqual(['event: ADDED', true, true])
  expect(JSON.parse(data.slice('data: '.length))).toEqual({ type: 'ADDED', resourceVersion: id.slice('id: '.length), etag: expect.any(String) })
})
