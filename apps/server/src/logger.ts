/** Log levels, least to most severe; `silent` writes nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

const SEVERITY: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }

/** Structured fields of a log line. Never put tokens or request bodies here. */
export type LogFields = Record<string, unknown>

/** A structured logger writing one JSON object per line. */
export interface Logger {
  debug(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** @default 'info' */
  readonly level?: LogLevel
  /**
   * Receives each line, newline included.
   * @default (line) => process.stdout.write(line)
   */
  readonly write?: (line: string) => void
  /** @default () => new Date() */
  readonly now?: () => Date
}

/** Serialises errors as name, message and stack; everything else as JSON does. */
function replacer(_key: string, value: unknown) {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack }
  }
  return typeof value === 'bigint' ? value.toString() : value
}

/**
 * Creates a logger that writes `{"time","level","msg",...fields}` lines to stdout. Lines below
 * `level` are dropped before they are formatted.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = SEVERITY[options.level ?? 'info']
  const write = options.write ?? ((line: string) => process.stdout.write(line))
  const now = options.now ?? (() => new Date())
  const log = (level: Exclude<LogLevel, 'silent'>) => (message: string, fields?: LogFields) => {
    if (SEVERITY[level] < threshold) return
    const line = { time: now().toISOString(), level, msg: message, ...fields }
    write(`${JSON.stringify(line, replacer)}\n`)
  }
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }
}
