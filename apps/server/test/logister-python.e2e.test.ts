import { describeOnPglite } from '@tis/test-utils/server'
import { describeLogisterPythonReplay } from './support/logister-python-suite'

// Logister's own Python client, replayed request for request against a real server on PGlite.
describeOnPglite('Logister Python client replay', describeLogisterPythonReplay)
