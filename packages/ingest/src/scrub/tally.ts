import type { ScrubReport, ScrubRule } from './settings'

/** The running count of one scrub. */
export interface Tally {
  add(rule: ScrubRule): void
  report(): ScrubReport
}

/** A fresh tally; its report is a new object each time, safe for the caller to keep. */
export function createTally(): Tally {
  let filtered = 0
  const rules: Partial<Record<ScrubRule, number>> = {}
  return {
    add(rule) {
      filtered++
      rules[rule] = (rules[rule] ?? 0) + 1
    },
    report: () => ({ filtered, rules: { ...rules } }),
  }
}
