import { safeStringify } from '@tis/sdk'

function describe(value: unknown): string {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return String(value)
  }
  if (value instanceof Error) return `${value.name}: ${value.message}`
  return safeStringify(value, { maxDepth: 4, maxStringLength: 500 })
}

/**
 * Formats console arguments as Node and browsers do for the common directives: `%s`, `%d`/`%i`,
 * `%f`, `%o`/`%O`/`%j` (safe JSON), `%c` (dropped) and `%%`; leftover arguments are appended.
 */
export function formatArgs(args: readonly unknown[]): string {
  const first = args[0]
  if (typeof first !== 'string') return args.map(describe).join(' ')
  let next = 1
  const head = first.replace(/%([sdifoOjc%])/g, (directive, flag: string) => {
    if (flag === '%') return '%'
    if (next >= args.length) return directive
    const value = args[next++]
    switch (flag) {
      case 'd':
      case 'i':
        return typeof value === 'bigint' ? `${value}n` : String(Math.trunc(Number(value)))
      case 'f':
        return String(Number(value))
      case 'c':
        return ''
      case 's':
        return typeof value === 'object' && value !== null && !(value instanceof Error)
          ? safeStringify(value, { maxDepth: 2 })
          : describe(value)
      default:
        return describe(value)
    }
  })
  return [head, ...args.slice(next).map(describe)].join(' ')
}
