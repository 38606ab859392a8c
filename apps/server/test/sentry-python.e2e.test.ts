import { describeOnEachStore } from '@tis/test-utils/server'
import { describeSentryPython, describeWithSentryPython } from './support/sentry-python-suite'

// Sentry's own Python SDK (Debian's python3-sentry-sdk 1.9.10, run by /usr/bin/python3) pointed
// at tis by nothing but its DSN, on each store. Skipped without the SDK, failing under CI.
describeWithSentryPython('Sentry Python SDK', () => {
  describeOnEachStore('Sentry Python SDK', describeSentryPython)
})
