import { describeOnEachStore } from '@tis/test-utils/server'
import { describeLogisterPythonReplay } from './support/logister-python-suite'

// Logister's own Python client, replayed request for request against a real server on each store.
describeOnEachStore('Logister Python client replay', describeLogisterPythonReplay)
