// The queue page as an approver meets it, for bench:approvals: from navigation start to the first
// rows painted, and to the first keyboard move that works.
import path from 'node:path'
import { chromium } from '@playwright/test'
import { signInContext } from './bench-auth.mjs'

// Runs in the page before its own scripts and notes two moments on the page's clock, so that polling
// from here (which waits for a busy page) adds nothing to the figures: the first frame painted with a
// request row in it, and the first time the focus leaves the first request with the detail following.
function watchQueue() {
  // Where the time goes, for the breakdown: when each window keydown listener was added (the last
  // is the queue's own, once it has hydrated) and the main thread's long tasks.
  window.__keydownListenersAt = []
  const add = window.addEventListener
  window.addEventListener = function (type, ...rest) {
    if (type === 'keydown') window.__keydownListenersAt.push(performance.now())
    return add.call(this, type, ...rest)
  }
  window.__longTasks = []
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration])
    }).observe({ type: 'longtask', buffered: true })
  } catch {
    // A browser without long tasks gives no figure for them.
  }
  new MutationObserver((_, observer) => {
    const rows = [...document.querySelectorAll('[data-testid="approval-row"]')]
    if (rows.length > 0 && window.__rowsAt === undefined) {
      window.__rowsAt = null
      requestAnimationFrame(() => setTimeout(() => (window.__rowsAt = performance.now())))
    }
    const at = rows.findIndex((r) => r.getAttribute('aria-selected') === 'true')
    const detail = document.querySelector('[data-testid="approval-detail"]')
    if (at > 0 && detail?.getAttribute('data-approval-id') === rows[at].getAttribute('data-approval-id')) {
      window.__firstMoveAt = performance.now()
      observer.disconnect()
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-selected', 'data-approval-id'] })
}

/** Presses `j` until the focus leaves the first request, as a person who sees nothing happen presses again (the queue notes moves pressed before it listens, components/approvals/early-queue-keys.ts); resolves with the page's clock at the move. */
async function firstKeyboardMove(page) {
  for (let attempt = 0; attempt < 100; attempt++) {
    await page.keyboard.press('j')
    for (let poll = 0; poll < 5; poll++) {
      const at = await page.evaluate(() => window.__firstMoveAt ?? null)
      if (at !== null) return at
      await page.waitForTimeout(20)
    }
  }
  throw new Error('the queue never answered the keyboard')
}

/** The moments of one load on the page's clock, and the main thread's long tasks until `interactive`. */
function breakdown(interactive) {
  const nav = performance.getEntriesByType('navigation')[0]
  const scripts = performance.getEntriesByType('resource').filter((r) => r.initiatorType === 'script' && r.startTime < interactive)
  const listening = window.__keydownListenersAt.filter((t) => t < interactive)
  const tasks = window.__longTasks.filter(([start]) => start < interactive)
  return {
    'server answered (first byte)': nav.responseStart,
    'HTML received': nav.responseEnd,
    'scripts received': Math.max(nav.responseEnd, ...scripts.map((r) => r.responseEnd)),
    'DOMContentLoaded done': nav.domContentLoadedEventEnd,
    'hydrated (last keydown listener)': listening.length ? Math.max(...listening) : NaN,
    'long tasks until interactive (sum)': tasks.reduce((sum, [, d]) => sum + d, 0),
  }
}

/** The approvers' browsers are elsewhere than the server (UTC here), as they usually are. */
export const APPROVER_TIME_ZONE = process.env.BENCH_TIMEZONE ?? 'Pacific/Auckland'

/**
 * Loads /approvals `loads` times (after one warm-up) as a signed-in approver; the page's clock at
 * rows and at interactive. `newTabEachLoad`: open every load in a new tab, which adds the browser's
 * own cost of opening a window (~0.4 s of CPU here, on the two cores the server also runs on).
 * Otherwise one tab loads the page again and again, as an approver who keeps the queue open does.
 */
export async function queuePageLoads(base, loads, { newTabEachLoad = false } = {}) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  const times = { rows: [], interactive: [], stages: {} }
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, timezoneId: APPROVER_TIME_ZONE })
    await signInContext(context, base)
    await context.addInitScript(watchQueue)
    let page = await context.newPage()
    for (let i = 0; i <= loads; i++) {
      if (newTabEachLoad) {
        await page.close()
        page = await context.newPage()
      } else {
        await page.goto('about:blank')
      }
      // BENCH_PROFILE_DIR: a Chromium trace of the last load (open it in chrome://tracing or Perfetto).
      const trace =
        process.env.BENCH_PROFILE_DIR && i === loads
          ? path.join(process.env.BENCH_PROFILE_DIR, `approvals-page-${newTabEachLoad ? 'new-tab' : 'one-tab'}.json`)
          : null
      const categories = [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8.execute',
        'disabled-by-default-v8.cpu_profiler',
        'blink.user_timing',
        'loading',
      ]
      if (trace) await browser.startTracing(page, { path: trace, screenshots: false, categories })
      await page.goto(`${base}/approvals`, { waitUntil: 'commit' })
      await page.waitForFunction(() => typeof window.__rowsAt === 'number', null, { polling: 20 })
      const rows = await page.evaluate(() => window.__rowsAt)
      // Interactive: the keyboard moves the focus off the first request and the detail follows it.
      const interactive = await firstKeyboardMove(page)
      if (trace) await browser.stopTracing()
      if (i > 0) {
        // The first load warms the server's compiled routes; it is not a user's first visit either.
        times.rows.push(rows)
        times.interactive.push(interactive)
        const stages = await page.evaluate(breakdown, interactive)
        for (const [name, at] of Object.entries(stages)) (times.stages[name] ??= []).push(at)
      }
    }
  } finally {
    await browser.close()
  }
  return times
}
