import { expressErrorHandler, expressMiddleware } from '@tis/express'
import type { Client } from '@tis/sdk'
import express from 'express'

/** The example shop: every request becomes a transaction, every 5xx an error in tis. */
export function createApp(tis: Client): express.Express {
  const app = express()
  // First, so the whole request (routing included) is timed and handlers run in its context.
  app.use(expressMiddleware(tis, { ignoreRoutes: ['/health'] }))

  app.get('/health', (_req, res) => {
    res.send('ok')
  })
  app.get('/orders/:id', (req, res) => {
    res.json({ id: req.params.id, status: 'shipped' })
  })
  app.post('/checkout', () => {
    throw new Error('Payment provider unavailable')
  })
  app.get('/inventory', (_req, res) => {
    // With @tis/console installed this is a log event at level error, tied to this request.
    console.error('inventory sync is %d minutes late', 42)
    res.json({ items: [] })
  })

  // After the routes: reports errors of status 500 or more, then passes them on.
  app.use(expressErrorHandler(tis))
  app.use(((error, _req, res, _next) => {
    res.status(500).json({ error: (error as Error).message })
  }) satisfies express.ErrorRequestHandler)
  return app
}
