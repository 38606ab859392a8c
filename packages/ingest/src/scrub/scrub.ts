// The scrubber: one per settings, its key verdicts memoised across the records it scrubs.
import { createKeyClassifier } from './keys'
import {
  CHECK_IN_SHAPE,
  DEPLOYMENT_SHAPE,
  EVENT_SHAPE,
  type RecordShape,
  scrubRecord,
} from './records'
import type { ScrubReport, ScrubSettings } from './settings'
import { createTally } from './tally'

/**
 * A scrubber for one set of settings; see {@link createScrubber}. A field the scrubber drops
 * (a `user_id` that is an IP address, a client-sent `context.data_scrubbing`) is absent from
 * `value` although its type still lists it.
 */
export interface Scrubber {
  /** The event with secrets replaced (a copy where anything changed; input never mutated) and what was filtered. */
  event<E extends { context?: unknown } & Record<string, unknown>>(
    event: E,
  ): { value: E; report: ScrubReport }
  /** The check-in with secrets replaced (a copy where anything changed) and what was filtered. */
  checkIn<C extends Record<string, unknown>>(checkIn: C): { value: C; report: ScrubReport }
  /** The deployment with secrets replaced (a copy where anything changed) and what was filtered. */
  deployment<D extends Record<string, unknown>>(deployment: D): { value: D; report: ScrubReport }
}

const unchanged = <T>(value: T): { value: T; report: ScrubReport } => ({
  value,
  report: { filtered: 0, rules: {} },
})

/** With scrubbing off every record is returned as it came. */
const DISABLED: Scrubber = { event: unchanged, checkIn: unchanged, deployment: unchanged }

/**
 * A scrubber for `settings`: replaces secrets with `[Filtered]` in copies of the records it is
 * given (the inputs are never mutated; where nothing changed, the input itself is returned).
 */
export function createScrubber(settings: ScrubSettings): Scrubber {
  if (!settings.enabled) return DISABLED
  const classify = createKeyClassifier(settings)
  const scrubIp = settings.scrubIpAddresses
  const scrub = <T extends Record<string, unknown>>(record: T, shape: RecordShape) => {
    const tally = createTally()
    const value = scrubRecord(record, shape, 0, { classify, tally, scrubIp }) as T
    return { value, report: tally.report() }
  }
  return {
    event: (event) => scrub(event, EVENT_SHAPE),
    checkIn: (checkIn) => scrub(checkIn, CHECK_IN_SHAPE),
    deployment: (deployment) => scrub(deployment, DEPLOYMENT_SHAPE),
  }
}

/** The most distinct settings {@link scrubberFor} keeps a scrubber for. */
export const SCRUBBER_CACHE_LIMIT = 1_000

const bySettings = new WeakMap<ScrubSettings, Scrubber>()
const bySerialisation = new Map<string, Scrubber>()

/** Settings in a form that is equal for equal settings (field order, case and order of names aside). */
export function settingsKey(settings: ScrubSettings): string {
  const names = (list: readonly string[]) => list.map((n) => n.toLowerCase()).sort()
  return JSON.stringify([
    settings.enabled,
    settings.scrubIpAddresses,
    names(settings.extraFields),
    names(settings.safeFields),
  ])
}

/**
 * The scrubber for `settings`, shared by every caller with equal settings, so its key verdicts
 * stay warm across requests. Bounded: the oldest entry goes when {@link SCRUBBER_CACHE_LIMIT} is
 * reached.
 */
export function scrubberFor(settings: ScrubSettings): Scrubber {
  if (!settings.enabled) return DISABLED
  const known = bySettings.get(settings)
  if (known !== undefined) return known
  const key = settingsKey(settings)
  let scrubber = bySerialisation.get(key)
  if (scrubber === undefined) {
    if (bySerialisation.size >= SCRUBBER_CACHE_LIMIT) {
      const oldest = bySerialisation.keys().next()
      if (!oldest.done) bySerialisation.delete(oldest.value)
    }
    scrubber = createScrubber(settings)
    bySerialisation.set(key, scrubber)
  }
  bySettings.set(settings, scrubber)
  return scrubber
}
