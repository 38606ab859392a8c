import { describeOnPglite } from '@tis/test-utils/server'
import { describeSentryNode } from './support/sentry-node-suite'

// Sentry's own Node SDK (@sentry/node) pointed at tis by nothing but its DSN, on PGlite.
describeOnPglite('@sentry/node', describeSentryNode)
