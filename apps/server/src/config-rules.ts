import * as z from 'zod'

// The rules the configuration variables share, as zod schemas over the raw string.

/** How one environment variable is documented. */
export interface ConfigVariable {
  /** What it sets, one or two sentences. */
  readonly description: string
  /** The value used when the variable is unset or blank; `undefined` when it has none. */
  readonly default: string | undefined
  /** Its value is a secret: never echoed in errors or logs. */
  readonly secret?: boolean
  /** The rule its value must follow, as zod. Input is the raw string. */
  readonly schema: z.ZodType<unknown, string>
}

/** An integer of at least `min` (and at most `max`), written in digits. */
export const integer = (min: number, max?: number) => {
  const rule =
    max === undefined
      ? `must be an integer of at least ${min}`
      : `must be an integer from ${min} to ${max}`
  return z
    .string()
    .trim()
    .regex(/^\d+$/, { error: rule })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: rule })
        .max(max ?? Number.MAX_SAFE_INTEGER, { error: rule }),
    )
}

/** `true`/`false`, `1`/`0` or `yes`/`no`, in any case. */
export const boolean = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }))
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

/** A comma-separated list of `item`s (blank entries dropped); `what` names them in the error. */
export const list = (item: z.ZodType<string, string>, what: string) =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .pipe(z.array(item, { error: `must be a comma-separated list of ${what}` }))

/** Non-blank text, trimmed. */
export const text = z.string().trim().min(1)

/** A ClickHouse database or table name: quoted nowhere, so only plain identifiers. */
export const identifier = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, {
    error: 'must be an identifier: a letter or _, then letters, digits or _ (at most 64)',
  })

/** A URL whose protocol is one of `protocols` (e.g. `'https:'`); `what` names it in the error. */
export const url = (protocols: readonly string[], what: string) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol)
        } catch {
          return false
        }
      },
      { error: `must be ${what}` },
    )
