/** Where problems the engine swallows are reported (never secrets or tokens). */
export interface EngineLogger {
  /** What background work did (a retention pass that deleted rows). */
  info?(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}
