import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigError, loadConfig, type ServerConfig } from './config'
import { startupMessage } from './first-run'
import { createLogger } from './logger'
import { isProjectionThread, runProjectionThread } from './projection-thread'
import { createServer } from './server'

// The entry point of `node dist/main.js`: configuration from the environment, then start, then
// wait for SIGTERM/SIGINT. Expected failures print one line to stderr and exit 1, without a stack.

function fail(message: string): never {
  process.stderr.write(`tis: ${message}\n`)
  process.exit(1)
}

/** How a person runs the CLI built next to this file, from their working directory. */
function cliCommand(): string {
  const cli = fileURLToPath(new URL('./cli.js', import.meta.url))
  if (!existsSync(cli)) return 'pnpm tis'
  const path = relative(process.cwd(), cli)
  return `node ${path.startsWith('..') ? cli : path}`
}

async function main() {
  let config: ServerConfig
  try {
    config = loadConfig(process.env)
  } catch (error) {
    if (ConfigError.is(error)) fail(error.message)
    throw error
  }
  const logger = createLogger({ level: config.logLevel })
  const started = performance.now()
  // The projection thread runs this very script (`isProjectionThread()` below).
  const projectionThread = process.argv[1]
  const server = await createServer(config, {
    logger,
    ...(projectionThread ? { projectionThread } : {}),
  }).catch((error: unknown) =>
    fail(`could not open the database: ${error instanceof Error ? error.message : error}`),
  )
  const address = await server.listen().catch(async (error: unknown) => {
    await server.close()
    fail(`could not listen on ${config.host}:${config.port}: ${(error as Error).message}`)
  })
  const { database } = config
  logger.info('listening', {
    url: address.url,
    database: database.kind,
    ...(database.kind === 'pglite' && database.dataDir ? { embedded_sync: database.sync } : {}),
    projection: server.projection,
    startup_ms: Math.round(performance.now() - started),
  })
  const message = startupMessage(server.bootstrap, { url: address.url, cli: cliCommand() })
  if (message) process.stdout.write(message)

  let stopping = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn('second signal: exiting without waiting', { signal })
      process.exit(1)
    }
    stopping = true
    logger.info('shutting down', { signal })
    server.close().then(
      () => {
        logger.info('stopped')
        process.exit(0)
      },
      (error: unknown) => {
        logger.error('shutdown failed', { error })
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
}

if (isProjectionThread()) {
  // An uncaught failure ends the thread; the server logs it and starts another.
  await runProjectionThread()
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`tis: failed to start: ${error instanceof Error ? error.stack : error}\n`)
    process.exit(1)
  })
}
