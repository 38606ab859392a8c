/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Html } from '../layout'

// Stored values of an event as the page shows them: the `[Filtered]` that data scrubbing put in
// place of a secret (docs/data-scrubbing.md) is marked wherever it appears, the rest is text.

/** What the data scrubber stores in place of a filtered value, or of the filtered part of one. */
export const FILTERED = '[Filtered]'

const FilteredMark = () => (
  <mark class="filtered" title="Filtered by data scrubbing">
    {FILTERED}
  </mark>
)

/** Text with each `[Filtered]` in it marked; every other part is escaped text, as always. */
export function Marked({ text }: { text: string }): Html {
  const [first = '', ...rest] = text.split(FILTERED)
  return (
    <>
      {first}
      {rest.map((part) => (
        <>
          <FilteredMark />
          {part}
        </>
      ))}
    </>
  )
}

/** A value as compact JSON (`undefined` as its name). */
export const compactJson = (value: unknown): string => JSON.stringify(value) ?? String(value)

/** A value as compact JSON in `<code>`, its `[Filtered]` strings marked. */
export const JsonValue = ({ value }: { value: unknown }): Html => (
  <code>
    <Marked text={compactJson(value)} />
  </code>
)

/** A stored value: a string as text, anything else as compact JSON; `[Filtered]` marked. */
export const StoredValue = ({ value }: { value: unknown }): Html =>
  typeof value === 'string' ? <Marked text={value} /> : <JsonValue value={value} />
