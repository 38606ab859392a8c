/** Where problems the engine swallows are reported (never secrets or tokens). */
export interface EngineLogger {
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}
