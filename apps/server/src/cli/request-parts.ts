// The parts of a request URL the API commands build, and the hint for a list's next page.

/** A path segment, percent-encoded. */
export const id = (value: string) => encodeURIComponent(value)

/** The query string of the flags given; the server validates the values (422). */
export function queryString(
  flags: readonly string[],
  values: Readonly<Record<string, string | undefined>>,
): string {
  const query = new URLSearchParams()
  for (const flag of flags) {
    const value = values[flag]
    if (value !== undefined) query.set(flag.replaceAll('-', '_'), value)
  }
  const text = query.toString()
  return text === '' ? '' : `?${text}`
}

/** The hint under a page that has a next one. */
export const more = (next: string | null) => (next ? `More: repeat with --cursor ${next}\n` : '')
