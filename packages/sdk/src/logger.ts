/** Receives the SDK's own diagnostics (dropped records, rejected credentials, bad options). */
export type DebugLogger = (message: string, detail?: unknown) => void

/** A logger that says nothing: the default when `debug` is off. */
export const SILENT: DebugLogger = () => {}

/**
 * The logger for a `debug` option. `true` writes through the `console.warn` present when the
 * client was created, so a later console instrumentation never sees the SDK's own output.
 */
export function makeLogger(debug: boolean | DebugLogger | undefined): DebugLogger {
  if (typeof debug === 'function') {
    return (message, detail) => {
      try {
        debug(message, detail)
      } catch {
        // a throwing logger must not take the SDK down with it
      }
    }
  }
  if (!debug || typeof console === 'undefined') return SILENT
  const warn = console.warn
  return (message, detail) => {
    try {
      warn.call(console, `[tis] ${message}`, ...(detail === undefined ? [] : [detail]))
    } catch {
      // ignore
    }
  }
}
