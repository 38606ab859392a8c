// Positions of the bench's frames, taken from the map's own mappings (decoded here, since
// apps/bench does not depend on a source-map library): every frame the events carry lands on a
// real segment, in an app module or in the SDK, as a browser's stack would.

/** A generated position of a mapped segment, 1-based as frames carry them. */
export interface MappedPosition {
  readonly lineno: number
  readonly colno: number
  /** Index in the map's `sources`. */
  readonly source: number
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]))

/** The VLQ numbers of one segment (`AAAA,` style). */
function decodeSegment(text: string): number[] {
  const out: number[] = []
  let value = 0
  let shift = 0
  for (const c of text) {
    const digit = DIGIT.get(c) ?? 0
    value += (digit & 31) << shift
    if (digit & 32) {
      shift += 5
      continue
    }
    out.push(value & 1 ? -(value >>> 1) : value >>> 1)
    value = 0
    shift = 0
  }
  return out
}

/** Every segment of `mappings` that has a source, in generated order. */
export function mappedPositions(mappings: string): MappedPosition[] {
  const positions: MappedPosition[] = []
  let source = 0
  mappings.split(';').forEach((line, index) => {
    let column = 0
    for (const segment of line.split(',')) {
      if (segment === '') continue
      const fields = decodeSegment(segment)
      column += fields[0] ?? 0
      if (fields.length < 4) continue
      source += fields[1] ?? 0
      positions.push({ lineno: index + 1, colno: column + 1, source })
    }
  })
  return positions
}

/**
 * `count` stacks of `app` app positions under `sdk` SDK positions (oldest first: the SDK's
 * dispatch calls into the app, as an event handler's error looks), picked evenly from the
 * segments so the stacks spread over the whole script.
 */
export function pickStacks(
  positions: readonly MappedPosition[],
  appSources: ReadonlySet<number>,
  shape: { readonly count: number; readonly app: number; readonly sdk: number },
): MappedPosition[][] {
  const app = positions.filter((p) => appSources.has(p.source))
  const sdk = positions.filter((p) => !appSources.has(p.source))
  if (app.length === 0 || sdk.length === 0) throw new Error('the map has no app or SDK segments')
  const at = (list: readonly MappedPosition[], k: number) =>
    list[Math.floor((k * 7919) % list.length)] as MappedPosition
  return Array.from({ length: shape.count }, (_, s) => [
    ...Array.from({ length: shape.sdk }, (_, k) => at(sdk, s * shape.sdk + k)),
    ...Array.from({ length: shape.app }, (_, k) => at(app, s * shape.app + k)),
  ])
}
