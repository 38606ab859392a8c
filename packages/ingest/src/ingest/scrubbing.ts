import type { NormalizedCheckIn, NormalizedDeployment, NormalizedEvent } from '@tis/schema'
import { type CredentialRecord, DEFAULT_DATA_SCRUBBING } from '../ports'
import { type ScrubReport, scrubberFor } from '../scrub'

// The data scrubber on the acceptance path: every record is scrubbed with its project's settings
// (carried by its credential) before it becomes a write, so the ingest log, the projection, the
// analytics export and alert bodies never see a filtered value (docs/data-scrubbing.md).

/** The project's scrubber (one that returns records as they came when scrubbing is off). */
const scrubberOf = (credential: CredentialRecord) =>
  scrubberFor(credential.dataScrubbing ?? DEFAULT_DATA_SCRUBBING)

/**
 * The event as it is stored: scrubbed, with `context.data_scrubbing` saying how many values were
 * filtered and by which rule (never what they were) when any was.
 */
export function scrubEvent(event: NormalizedEvent, credential: CredentialRecord): NormalizedEvent {
  const { value, report } = scrubberOf(credential).event(event)
  if (report.filtered === 0) return value
  return { ...value, context: { ...value.context, data_scrubbing: reportJson(report) } }
}

/** A check-in as it is stored, scrubbed. */
export function scrubCheckIn(
  checkIn: NormalizedCheckIn,
  credential: CredentialRecord,
): NormalizedCheckIn {
  return scrubberOf(credential).checkIn(checkIn).value
}

/** A deployment as it is stored, scrubbed (its free `github` object and unknown fields). */
export function scrubDeployment(
  deployment: NormalizedDeployment,
  credential: CredentialRecord,
): NormalizedDeployment {
  return scrubberOf(credential).deployment(deployment).value
}

/** The report as the event keeps it: `{filtered, rules: {<rule>: n}}`. */
const reportJson = (report: ScrubReport) => ({
  filtered: report.filtered,
  rules: { ...report.rules },
})
