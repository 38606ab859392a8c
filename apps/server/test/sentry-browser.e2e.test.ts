import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import type { Harness } from '@tis/test-utils/server'
import { describeOnPglite } from '@tis/test-utils/server'
import { afterAll, beforeAll } from 'vitest'
import { type SentryBrowserPage, startSentryBrowserPage } from './support/sentry-browser-page'
import { describeSentryBrowser } from './support/sentry-browser-suite'

type Browser = Awaited<ReturnType<typeof launchChromium>>

// Sentry's own browser SDK (@sentry/browser) in headless Chromium, in a page served from another
// origin than tis (CORS for real), pointed at tis by nothing but its DSN, on PGlite.
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
  // Only the page's origins may send. The suites' small rate limit stays: a page load (one
  // transaction of some twenty spans) counts once against it, like an OTLP export.
  const env = () => ({ SERVICE_CORS_ORIGINS: `${page.origin},${page.otherOrigin}` })

  const suite = (harness: () => Harness) => describeSentryBrowser(harness, () => [browser, page])
  describeOnPglite('@sentry/browser', suite, env)
})
