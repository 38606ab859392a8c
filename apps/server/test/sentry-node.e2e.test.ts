import { describeOnEachStore } from './support/each-store'
import { describeSentryNode } from './support/sentry-node-suite'

// Sentry's own Node SDK (@sentry/node) pointed at tis by nothing but its DSN, on each store.
describeOnEachStore('@sentry/node', describeSentryNode)
