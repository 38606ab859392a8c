import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

/** The system Chromium (Debian's `chromium` package); playwright never downloads browsers here. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/** Flags for a quiet headless Chromium in containers (no sandbox, no GPU, no background traffic). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
] as const

/** What {@link launchTestChromium} found: a browser, or why there is none. */
export type TestChromium =
  | { readonly browser: Browser; readonly skip: null }
  | { readonly browser: null; readonly skip: string }

/**
 * Launches the system Chromium headless through playwright-core. Without the binary it resolves
 * `{ browser: null, skip }` so a suite can skip locally — except under `CI`, where a missing
 * Chromium is an error (CI installs it from .ci/apt-packages and must never skip browser tests).
 */
export async function launchTestChromium(): Promise<TestChromium> {
  if (!existsSync(CHROMIUM_PATH)) {
    const message = `${CHROMIUM_PATH} is missing: install it with \`apt-get install chromium\``
    if (process.env['CI']) throw new Error(`${message} (required in CI)`)
    return { browser: null, skip: message }
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] })
  return { browser, skip: null }
}
