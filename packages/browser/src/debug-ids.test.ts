import { createClient, type Transport } from '@tis/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { debugIdsByFile } from './debug-ids'
import { debugIdsIntegration } from './debug-ids-integration'

const APP = 'https://shop.example/assets/app-3f2a.js'
const VENDOR = 'https://shop.example/assets/vendor-9c1b.js'
const APP_ID = 'f6252536-61a8-5fd0-8deb-93c12ba4ecc7'
const VENDOR_ID = '0c2e5d4b-7a1f-4e2b-9d3c-5b6a7e8f9a0b'

// The keys are what `new Error().stack` gives inside each injected snippet (Chrome, Firefox).
const injected = () => ({
  [`Error\n    at ${APP}:2:34\n    at ${APP}:2:120`]: APP_ID,
  [`@${VENDOR}:1:50\n`]: VENDOR_ID,
})

const g = globalThis as { _sentryDebugIds?: unknown }

function errorAt(message: string, ...files: string[]) {
  const error = new Error(message)
  error.stack = `Error: ${message}\n${files.map((f, i) => `    at fn${i} (${f}:1:${10 + i})`).join('\n')}`
  return error
}

/** A real client whose transport keeps what it is given; returns the events sent. */
function client() {
  const events: Record<string, Record<string, unknown>>[] = []
  const transport: Transport = {
    async send(request) {
      events.push(JSON.parse(request.body).event)
      return { status: 'sent', statusCode: 201 }
    },
    flush: async () => ({ sent: events.length, duplicates: 0, dropped: {}, pending: 0 }),
  }
  const c = createClient({
    baseUrl: 'https://tis.example',
    apiKey: 'k',
    transport,
    autoFlush: false,
    integrations: [debugIdsIntegration()],
  })
  return { c, events }
}

describe('debugIdsIntegration', () => {
  afterEach(() => {
    delete g._sentryDebugIds
  })

  it('sends one image per file the frames name, causes and members included', async () => {
    g._sentryDebugIds = injected()
    const { c, events } = client()
    const cause = errorAt('inner', VENDOR, APP)
    const error = Object.assign(errorAt('outer', APP, APP, 'https://cdn.example/other.js'), {
      cause,
    })
    c.captureException(error, { context: { cart: 3 } })
    await c.flush()
    expect(events[0]!['context']).toMatchObject({
      cart: 3,
      debug_meta: {
        images: [
          { type: 'sourcemap', code_file: APP, debug_id: APP_ID },
          { type: 'sourcemap', code_file: VENDOR, debug_id: VENDOR_ID },
        ],
      },
    })
    expect((events[0]!['context']!['debug_meta'] as { images: unknown[] }).images).toHaveLength(2)
  })

  it('sends no debug_meta without debug IDs, or when no frame names an injected file', async () => {
    const { c, events } = client()
    c.captureException(errorAt('plain', APP))
    g._sentryDebugIds = injected()
    c.captureException(errorAt('elsewhere', 'https://cdn.example/other.js'))
    await c.flush()
    expect(events).toHaveLength(2)
    for (const event of events) expect(event['context']).not.toHaveProperty('debug_meta')
  })

  it('re-reads the map when chunks add keys, and ignores values that are not strings', () => {
    g._sentryDebugIds = { [`Error\n    at ${APP}:2:34`]: APP_ID, [`@${VENDOR}:1:1`]: 42 }
    expect(debugIdsByFile()).toEqual({ [APP]: APP_ID })
    ;(g._sentryDebugIds as Record<string, string>)[`Error\n    at ${VENDOR}:1:1`] = VENDOR_ID
    expect(debugIdsByFile()).toEqual({ [APP]: APP_ID, [VENDOR]: VENDOR_ID })
  })

  it('never throws into the host: a hostile map costs the images, not the error', async () => {
    g._sentryDebugIds = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('hostile')
        },
      },
    )
    const { c, events } = client()
    expect(() => c.captureException(errorAt('still sent', APP))).not.toThrow()
    await c.flush()
    expect(events[0]!['message']).toBe('still sent')
    expect(events[0]!['context']).not.toHaveProperty('debug_meta')
  })

  it('is removed by close(): later captures are left as they are', async () => {
    g._sentryDebugIds = injected()
    const { c, events } = client()
    const wrapped = c.captureException
    await c.close()
    expect(c.captureException).not.toBe(wrapped)
    expect(events).toHaveLength(0)
  })
})
