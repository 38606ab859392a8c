import type { Client, Integration, Level } from '@tis/sdk'
import { formatArgs } from './format'

/** The console methods that can be instrumented. */
export type ConsoleMethod = 'debug' | 'info' | 'log' | 'warn' | 'error'

/** Options of {@link instrumentConsole}. */
export interface ConsoleOptions {
  /** Methods to report. @default ['debug', 'info', 'log', 'warn', 'error'] */
  readonly levels?: readonly ConsoleMethod[]
  /** Most console calls reported per second; later ones are only printed. @default 50 */
  readonly maxPerSecond?: number
  /** The console to instrument. @default globalThis.console */
  readonly console?: Console
}

const METHODS: readonly ConsoleMethod[] = ['debug', 'info', 'log', 'warn', 'error']
const LEVELS: Record<ConsoleMethod, Level> = {
  debug: 'debug',
  info: 'info',
  log: 'info',
  warn: 'warn',
  error: 'error',
}
// A registry symbol, so two copies of this package still see each other's installation.
const INSTALLED = Symbol.for('tis.console')

type Patched = Console & { [INSTALLED]?: boolean }

/**
 * Reports console calls to `client`: `debug/info/log/warn` as `log` events (levels
 * debug/info/info/warn), `console.error` with an Error argument through `captureException`,
 * other `console.error` calls as `log` events at level `error`. The original methods always
 * run as well. Returns the function that restores the exact originals; installing twice is a no-op.
 */
export function instrumentConsole(client: Client, options: ConsoleOptions = {}): () => void {
  const target = (options.console ?? globalThis.console) as Patched | undefined
  if (!target || target[INSTALLED]) return () => {}
  const maxPerSecond = options.maxPerSecond ?? 50
  const originals: Partial<Record<ConsoleMethod, Console[ConsoleMethod]>> = {}
  let reporting = false
  let windowStart = 0
  let inWindow = 0

  function report(method: ConsoleMethod, args: unknown[]) {
    const now = Date.now()
    if (now - windowStart >= 1000) {
      windowStart = now
      inWindow = 0
    }
    if (++inWindow > maxPerSecond) return
    const message = formatArgs(args)
    const context = { logger: 'console', console_method: method }
    const error = method === 'error' ? args.find((a) => a instanceof Error) : undefined
    if (error) client.captureException(error, { context: { ...context, console_message: message } })
    else client.captureMessage(message, { level: LEVELS[method], context })
  }

  for (const method of options.levels ?? METHODS) {
    const original = target[method]
    if (typeof original !== 'function') continue
    originals[method] = original
    target[method] = function (this: unknown, ...args: unknown[]) {
      // The guard keeps the SDK's own output (and anything it triggers) from looping back.
      if (!reporting) {
        reporting = true
        try {
          report(method, args)
        } catch {
          // never let reporting break the host's logging
        } finally {
          reporting = false
        }
      }
      return original.apply(this ?? target, args)
    }
  }
  target[INSTALLED] = true

  return () => {
    for (const method of Object.keys(originals) as ConsoleMethod[]) {
      target[method] = originals[method]!
    }
    delete target[INSTALLED]
  }
}

/** {@link instrumentConsole} as a client integration: `createClient({ integrations: [consoleIntegration()] })`. */
export function consoleIntegration(options: ConsoleOptions = {}): Integration<Client> {
  return { name: 'Console', setup: (client) => instrumentConsole(client, options) }
}
