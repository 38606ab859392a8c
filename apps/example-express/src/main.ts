import { consoleIntegration } from '@tis/console'
import { createClient } from '@tis/sdk'
import { createApp } from './app'

// TIS_URL and TIS_API_KEY come from your tis server: `tis keys create <project-id>` prints a key.
const tis = createClient({
  baseUrl: process.env['TIS_URL'] ?? 'http://localhost:3000',
  apiKey: process.env['TIS_API_KEY'] ?? '',
  environment: process.env['NODE_ENV'] ?? 'development',
  release: process.env['RELEASE'] ?? 'dev',
  integrations: [consoleIntegration({ levels: ['warn', 'error'] })],
})

const port = Number(process.env['PORT'] ?? 8080)
const server = createApp(tis).listen(port, () => {
  console.log(`example-express listening on http://localhost:${port}`)
})

// Send what is still queued before the process ends.
process.once('SIGTERM', () => {
  server.close()
  void tis.close(2_000)
})
