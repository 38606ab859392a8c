import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'

const PUBLIC = fileURLToPath(new URL('../public/', import.meta.url))
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
}

/** A tiny static server: the files of `public/`, `/app.js` from memory, any other path → the page. */
export function createStaticServer(appJs: string): Server {
  return createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    if (path === '/app.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(appJs)
      return
    }
    const type = TYPES[extname(path)]
    // Only known extensions, and no `..`: nothing outside public/ is ever read.
    const file = type && !path.includes('..') ? path.slice(1) : 'index.html'
    try {
      const body = await readFile(`${PUBLIC}${file}`)
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'text/plain' }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
}
