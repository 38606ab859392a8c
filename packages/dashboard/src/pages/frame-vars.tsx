/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Html } from '../layout'
import { JsonValue } from './filtered'

// A stack frame's local variables (Sentry's `vars`, kept bounded and scrubbed in the stored
// `context.exception.frames[i].vars`, docs/data-scrubbing.md), folded under the frame.

/** A frame's local variables, name → value. */
export type FrameVars = Readonly<Record<string, unknown>>

const record = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null

/** The `vars` of a stored frame object, when it has any. */
export function varsOf(stored: unknown): FrameVars | undefined {
  const vars = record(record(stored)?.['vars'])
  return vars && Object.keys(vars).length > 0 ? vars : undefined
}

/**
 * The detail's frames with the local variables of the stored `context.exception.frames`: the
 * detail's frames are read from those objects in order (the same filter), so index i is frame i.
 */
export function withVars<F extends object>(
  frames: readonly F[],
  stored: unknown,
): readonly (F & { readonly vars?: FrameVars })[] {
  const objects = Array.isArray(stored) ? stored.map(record).filter((o) => o !== null) : []
  if (objects.length === 0) return frames
  return frames.map((f, i) => {
    const vars = varsOf(objects[i])
    return vars ? { ...f, vars } : f
  })
}

/** A frame's local variables in a closed `<details>`: name and compact JSON value. */
export function LocalVariables(props: { vars: FrameVars | undefined; frame: string }): Html | null {
  const entries = Object.entries(props.vars ?? {})
  if (entries.length === 0) return null
  return (
    <details class="vars">
      <summary>{`Local variables (${entries.length})`}</summary>
      <table>
        <caption class="skip">{`Local variables of ${props.frame}`}</caption>
        <tbody>
          {entries.map(([name, value]) => (
            <tr>
              <th scope="row">
                <code>{name}</code>
              </th>
              <td>
                <JsonValue value={value} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}
