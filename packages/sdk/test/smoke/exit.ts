// A host application that captures and never flushes: it must still exit on its own, promptly,
// with its records delivered by the beforeExit flush when the server is reachable.
import { createClient } from '../../src/index'

const [baseUrl = '', count = '2'] = process.argv.slice(2)
const client = createClient({ baseUrl, apiKey: 'tis_exit', transportOptions: { backoffMs: 50 } })
for (let i = 0; i < Number(count); i++) client.captureMessage(`exit ${i}`)
