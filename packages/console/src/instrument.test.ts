import { createClient } from '@tis/sdk'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { consoleIntegration, instrumentConsole } from './instrument'

function fakeClient() {
  return {
    captureMessage: vi.fn(() => 'id'),
    captureException: vi.fn(() => 'id'),
  } as unknown as Parameters<typeof instrumentConsole>[0] & {
    captureMessage: ReturnType<typeof vi.fn>
    captureException: ReturnType<typeof vi.fn>
  }
}

function fakeConsole() {
  const printed: [string, unknown[]][] = []
  const make =
    (m: string) =>
    (...args: unknown[]) => {
      printed.push([m, args])
    }
  const target = {
    debug: make('debug'),
    info: make('info'),
    log: make('log'),
    warn: make('warn'),
    error: make('error'),
  } as unknown as Console
  return { target, printed }
}

describe('instrumentConsole', () => {
  it.each([
    ['debug', 'debug'],
    ['info', 'info'],
    ['log', 'info'],
    ['warn', 'warn'],
    ['error', 'error'],
  ] as const)('console.%s becomes a log at level %s and still prints', (method, level) => {
    const client = fakeClient()
    const { target, printed } = fakeConsole()
    const uninstall = instrumentConsole(client, { console: target })
    target[method]('value %d', 42)
    expect(client.captureMessage).toHaveBeenCalledWith('value 42', {
      level,
      context: { logger: 'console', console_method: method },
    })
    expect(printed).toEqual([[method, ['value %d', 42]]])
    uninstall()
  })

  it('console.error with an Error argument goes through captureException', () => {
    const client = fakeClient()
    const { target } = fakeConsole()
    const uninstall = instrumentConsole(client, { console: target })
    const error = new RangeError('out of range')
    target.error('request failed:', error)
    expect(client.captureException).toHaveBeenCalledWith(error, {
      context: {
        logger: 'console',
        console_method: 'error',
        console_message: 'request failed: RangeError: out of range',
      },
    })
    expect(client.captureMessage).not.toHaveBeenCalled()
    // an Error passed to console.warn is only a log
    target.warn(error)
    expect(client.captureMessage).toHaveBeenCalledWith(
      'RangeError: out of range',
      expect.anything(),
    )
    uninstall()
  })

  it('restores the exact original methods and installs only once', () => {
    const client = fakeClient()
    const { target } = fakeConsole()
    const originals = { ...target }
    const uninstall = instrumentConsole(client, { console: target })
    expect(target.log).not.toBe(originals.log)
    const second = instrumentConsole(client, { console: target })
    target.log('once')
    expect(client.captureMessage).toHaveBeenCalledTimes(1)
    second()
    expect(target.log).not.toBe(originals.log)
    uninstall()
    for (const method of ['debug', 'info', 'log', 'warn', 'error'] as const) {
      expect(target[method]).toBe(originals[method])
    }
    // and it can be installed again afterwards
    const again = instrumentConsole(client, { console: target })
    expect(target.log).not.toBe(originals.log)
    again()
  })

  it('works on the global console and restores it', () => {
    const client = fakeClient()
    const original = console.info
    const uninstall = instrumentConsole(client, { levels: ['info'] })
    expect(console.info).not.toBe(original)
    uninstall()
    expect(console.info).toBe(original)
  })

  it('filters by level', () => {
    const client = fakeClient()
    const { target, printed } = fakeConsole()
    const originalDebug = target.debug
    const uninstall = instrumentConsole(client, { console: target, levels: ['warn', 'error'] })
    expect(target.debug).toBe(originalDebug)
    target.debug('ignored')
    target.log('ignored')
    target.warn('kept')
    expect(client.captureMessage).toHaveBeenCalledTimes(1)
    expect(printed).toHaveLength(3)
    uninstall()
  })

  it('caps reports per second but keeps printing', () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const client = fakeClient()
      const { target, printed } = fakeConsole()
      const uninstall = instrumentConsole(client, { console: target, maxPerSecond: 3 })
      for (let i = 0; i < 10; i++) target.log(`line ${i}`)
      expect(client.captureMessage).toHaveBeenCalledTimes(3)
      expect(printed).toHaveLength(10)
      vi.advanceTimersByTime(1000)
      target.log('next second')
      expect(client.captureMessage).toHaveBeenCalledTimes(4)
      uninstall()
    } finally {
      vi.useRealTimers()
    }
  })

  it('guards against re-entrancy: console calls made while reporting are only printed', () => {
    const { target, printed } = fakeConsole()
    const client = fakeClient()
    client.captureMessage.mockImplementation(() => {
      target.warn('the SDK logging about itself')
      return 'id'
    })
    const uninstall = instrumentConsole(client, { console: target })
    target.log('outer')
    expect(client.captureMessage).toHaveBeenCalledTimes(1)
    expect(printed.map(([m]) => m)).toEqual(['warn', 'log'])
    uninstall()
  })

  it('never breaks the host when the client throws', () => {
    const { target, printed } = fakeConsole()
    const client = fakeClient()
    client.captureMessage.mockImplementation(() => {
      throw new Error('client broke')
    })
    const uninstall = instrumentConsole(client, { console: target })
    expect(() => target.log('still printed')).not.toThrow()
    expect(printed).toHaveLength(1)
    uninstall()
  })
})

describe('with a real client', () => {
  const server = setupServer()
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => server.resetHandlers())
  afterAll(() => server.close())

  it('sends console calls as events; the integration uninstalls on close', async () => {
    const bodies: Record<string, Record<string, unknown>>[] = []
    const baseUrl = 'https://tis-console.test'
    server.use(
      http.post(`${baseUrl}/api/v1/ingest_events`, async ({ request }) => {
        bodies.push((await request.json()) as Record<string, Record<string, unknown>>)
        return HttpResponse.json({ id: 'x', status: 'accepted' }, { status: 201 })
      }),
    )
    const { target } = fakeConsole()
    const original = target.warn
    const client = createClient({
      baseUrl,
      apiKey: 'tis_console',
      autoFlush: false,
      integrations: [consoleIntegration({ console: target })],
    })
    target.warn('disk at %d%%', 91)
    target.error(new Error('crashed'))
    await client.flush()
    expect(
      bodies.map((b) => [b['event']!['event_type'], b['event']!['level'], b['event']!['message']]),
    ).toEqual([
      ['log', 'warn', 'disk at 91%'],
      ['error', 'error', 'crashed'],
    ])
    await client.close()
    expect(target.warn).toBe(original)
  })
})
