import { openEngine } from './engine'
import { createFastifyApp } from './fastify'
import { createNodeServer } from './node-http'

// `tsx src/main.ts node|fastify`: the same engine and store behind either host.
const host = process.argv[2] === 'fastify' ? 'fastify' : 'node'
const port = Number(process.env['PORT'] ?? 3000)
const { engine, bootstrap, close } = await openEngine({
  dataDir: process.env['TIS_DATA_DIR'] ?? '.tis/embedded',
  adminEmails: (process.env['TIS_ADMIN_EMAILS'] ?? 'admin@localhost').split(','),
  ...(process.env['TIS_ADMIN_TOKEN'] ? { adminToken: process.env['TIS_ADMIN_TOKEN'] } : {}),
})

let stop: () => Promise<unknown>
if (host === 'fastify') {
  const app = createFastifyApp(engine)
  await app.listen({ port, host: '0.0.0.0' })
  stop = () => app.close()
} else {
  const server = createNodeServer(engine).listen(port)
  stop = () => new Promise((resolve) => server.close(resolve))
}
if (bootstrap.action === 'first-run') {
  console.log(`first run: ${bootstrap.email} signs in with ${bootstrap.token} (shown once)`)
}
console.log(`tis engine embedded in ${host} on http://localhost:${port}`)

// Stop accepting, then let the engine flush its queued records before the store closes.
process.once('SIGTERM', async () => {
  await stop()
  await close()
})
