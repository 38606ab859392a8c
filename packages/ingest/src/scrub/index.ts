export { createScrubber, SCRUBBER_CACHE_LIMIT, type Scrubber, scrubberFor } from './scrub'
export {
  DEFAULT_SCRUB_SETTINGS,
  FILTERED,
  type ScrubReport,
  type ScrubRule,
  type ScrubSettings,
} from './settings'
