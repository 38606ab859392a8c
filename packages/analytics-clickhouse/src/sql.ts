// Inline SQL literals: ClickHouse 18.16 has no query parameters (`{p:String}`), so values that
// reach a query are escaped here, and names are validated identifiers quoted with backticks.

/** A name ClickHouse accepts unquoted; database and table settings must match it. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/

/** `value` as a single-quoted ClickHouse string literal (backslash escapes). */
export function quoteString(value: string): string {
  const escaped = value.replace(/[\\'\0\n\r\t]/g, (c) => {
    switch (c) {
      case '\0':
        return '\\0'
      case '\n':
        return '\\n'
      case '\r':
        return '\\r'
      case '\t':
        return '\\t'
      default:
        return `\\${c}`
    }
  })
  return `'${escaped}'`
}

/** `name` quoted with backticks; throws for a name that is not a plain identifier. */
export function quoteIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new TypeError(`not a valid identifier: ${JSON.stringify(name)}`)
  return `\`${name}\``
}

/** `database`.`table`, both validated. */
export function qualified(database: string, table: string): string {
  return `${quoteIdentifier(database)}.${quoteIdentifier(table)}`
}

/** Splits `items` into runs of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
