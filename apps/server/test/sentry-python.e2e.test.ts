import { describeOnPglite } from '@tis/test-utils/server'
import { describeSentryPython, describeWithSentryPython } from './support/sentry-python-suite'

// Sentry's own Python SDK (Debian's python3-sentry-sdk 1.9.10, run by /usr/bin/python3) pointed
// at tis by nothing but its DSN, on PGlite. Skipped without the SDK, failing under CI.
describeWithSentryPython('Sentry Python SDK', () => {
  describeOnPglite('Sentry Python SDK', describeSentryPython)
})
