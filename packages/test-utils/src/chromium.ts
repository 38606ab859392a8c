import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { describe, it } from 'vitest'

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

/**
 * `describe` for suites that need Chromium: skipped locally when the binary is missing (the title
 * says how to install it), and under `CI` replaced by a failing test, since CI installs Chromium
 * from .ci/apt-packages and must never skip browser tests. Launch inside with
 * {@link launchTestChromium}.
 */
export function describeWithChromium(title: string, body: () => void): void {
  if (existsSync(CHROMIUM_PATH)) {
    describe(title, body)
  } else if (process.env['CI']) {
    describe(title, () => {
      it('has Chromium (required in CI)', () => {
        throw new Error(`${CHROMIUM_PATH} is missing; .ci/run installs it from .ci/apt-packages`)
      })
    })
  } else {
    describe.skip(`${title} (skipped: ${CHROMIUM_PATH} missing, apt-get install chromium)`, body)
  }
}

/** Launches Chromium where {@link describeWithChromium} established that it exists. */
export async function launchChromium(): Promise<Browser> {
  const { browser, skip } = await launchTestChromium()
  if (browser === null) throw new Error(skip)
  return browser
}
