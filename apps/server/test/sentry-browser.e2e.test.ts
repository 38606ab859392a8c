import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { type Harness, startPgliteHarness, startPostgresHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe } from 'vitest'
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
  const cors = () => ({
    SERVICE_CORS_ORIGINS: `${page.origin},${page.otherOrigin}`,
    SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000',
  })

  describe('on PGlite', () => {
    let harness: Harness
    beforeAll(async () => {
      harness = await startPgliteHarness(cors())
    })
    afterAll(() => harness?.close())
    describeSentryBrowser(
      () => harness,
      () => [browser, page],
    )
  })

  describeWithTestDatabase('on PostgreSQL', (url) => {
    let harness: Harness
    beforeAll(async () => {
      harness = await startPostgresHarness(url, cors())
    })
    afterAll(() => harness?.close())
    describeSentryBrowser(
      () => harness,
      () => [browser, page],
    )
  })
})
