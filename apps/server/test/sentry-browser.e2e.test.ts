import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import type { Harness } from '@tis/test-utils/server'
import { describeOnEachStore } from '@tis/test-utils/server'
import { afterAll, beforeAll } from 'vitest'
import { type SentryBrowserPage, startSentryBrowserPage } from './support/sentry-browser-page'
import { describeSentryBrowser } from './support/sentry-browser-suite'

type Browser = Awaited<ReturnType<typeof launchChromium>>

// Sentry's own browser SDK (@sentry/browser) in headless Chromium, in a page served from another
// origin than tis (CORS for real), pointed at tis by nothing but its DSN, on each store.
// Without Chromium the suite is skipped locally and fails in CI (describeWithChromium).
describeWithChromium('@sentry/browser in headless Chromium', () => {
  let browser: Browser
  let page: SentryBrowserPage
  beforeAll(async () => {
    page = await startSentryBrowserPage()
    browser = await launchChromium()
  }, 30_000)
  afterAll(async () => {
    await browser?.close()
    await page?.close()
  })
  // Only the page's origins may send. A page load is some twenty span records, each counted
  // against the key's rate limit: the suites' small cap would answer 429 to the second load.
  const env = () => ({
    SERVICE_CORS_ORIGINS: `${page.origin},${page.otherOrigin}`,
    SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000',
  })

  const suite = (harness: () => Harness) => describeSentryBrowser(harness, () => [browser, page])
  describeOnEachStore('@sentry/browser', suite, env)
})
