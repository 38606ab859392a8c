import {
  mismatchMessage,
  type ResponseExchange,
  type ResponseMismatch,
  type ResponseValidator,
} from './validator'

/** What a mismatch does: nothing, one log line per distinct mismatch, or a thrown error. */
export type ResponseCheckMode = 'off' | 'report' | 'strict'

/** The environment variable that picks the {@link ResponseCheckMode} (default `strict`). */
export const RESPONSE_CHECK_ENV = 'TIS_RESPONSE_CHECK'

const MODES: readonly ResponseCheckMode[] = ['off', 'report', 'strict']

/** The mode `TIS_RESPONSE_CHECK` selects; `strict` when unset; throws on any other value. */
export function responseCheckMode(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ResponseCheckMode {
  const value = env[RESPONSE_CHECK_ENV]
  if (value === undefined || value === '') return 'strict'
  if ((MODES as readonly string[]).includes(value)) return value as ResponseCheckMode
  throw new Error(`${RESPONSE_CHECK_ENV} must be one of ${MODES.join(', ')}, not "${value}"`)
}

/** An answer that does not match the OpenAPI document. */
export class ResponseMismatchError extends Error {
  override readonly name = 'ResponseMismatchError'
  constructor(readonly mismatch: ResponseMismatch) {
    super(mismatchMessage(mismatch))
  }
  /** Whether `error` is a {@link ResponseMismatchError} (by name, across module copies). */
  static is(error: unknown): error is ResponseMismatchError {
    return error instanceof Error && error.name === 'ResponseMismatchError'
  }
}

/** Options of {@link createResponseCheck}. */
export interface ResponseCheckOptions {
  /** @default `responseCheckMode()`, from `TIS_RESPONSE_CHECK` */
  readonly mode?: ResponseCheckMode
  /** Where `report` mode writes. @default `console.warn` */
  readonly report?: (line: string) => void
}

/**
 * Runs `validator` on each exchange according to the mode: `strict` throws a
 * {@link ResponseMismatchError}, `report` logs each distinct mismatch once
 * (`[response-check] …`), `off` checks nothing.
 */
export function createResponseCheck(
  validator: ResponseValidator,
  options: ResponseCheckOptions = {},
): (exchange: ResponseExchange) => void {
  const mode = options.mode ?? responseCheckMode()
  const report = options.report ?? ((line: string) => console.warn(line))
  const reported = new Set<string>()
  return (exchange) => {
    if (mode === 'off') return
    const mismatch = validator(exchange)
    if (!mismatch) return
    if (mode === 'strict') throw new ResponseMismatchError(mismatch)
    const line = mismatchMessage(mismatch)
    if (reported.has(line)) return
    reported.add(line)
    report(`[response-check] ${line}`)
  }
}
