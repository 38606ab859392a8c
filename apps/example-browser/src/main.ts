import { buildApp } from './build'
import { createStaticServer } from './server'

const appJs = await buildApp({
  tisUrl: process.env['TIS_URL'] ?? 'http://localhost:3000',
  apiKey: process.env['TIS_API_KEY'] ?? '',
})
const port = Number(process.env['PORT'] ?? 8080)
createStaticServer(appJs).listen(port, () => {
  console.log(`example-browser: open http://localhost:${port}/products/7`)
})
