import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Logger } from './logger'
import { type ProjectionThreadSettings, startProjectionThread } from './projection-thread'

// The request thread's half of the projection thread, against stand-in thread scripts that speak
// its messages: progress wakes listeners, nudges and hurries reach the thread, a stop waits for
// it to end, and a thread that dies is started again.

const dir = mkdtempSync(join(tmpdir(), 'tis-projection-thread-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function script(name: string, body: string): string {
  const path = join(dir, `${name}.mjs`)
  writeFileSync(path, `import { parentPort, workerData } from 'node:worker_threads'\n${body}\n`)
  return path
}

const settings: ProjectionThreadSettings = {
  url: 'postgres://unused',
  analytics: false,
  roundSize: 10,
  sourceMapCacheBytes: 1,
}

function recordingLogger() {
  const lines: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = []
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    lines.push({ level, msg, ...(fields ? { fields } : {}) })
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  }
  return { lines, logger }
}

const until = async (condition: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 5))
  }
}

describe('startProjectionThread', () => {
  it('forwards nudges and hurries, wakes progress listeners, says what the thread logs, and stops it', async () => {
    // Answers every nudge and hurry with progress, logs them, and drains on stop.
    const echo = script(
      'echo',
      `parentPort.postMessage({ type: 'log', level: 'info', msg: 'thread up', fields: { roundSize: workerData['tis-projection-thread'].roundSize } })
parentPort.on('message', (m) => {
  if (m.type === 'stop') {
    parentPort.postMessage({ type: 'log', level: 'warn', msg: 'draining', fields: { drainMs: m.drainMs } })
    setTimeout(() => parentPort.close(), 50)
    return
  }
  parentPort.postMessage({ type: 'log', level: 'debug', msg: m.type, fields: { count: m.count ?? null } })
  parentPort.postMessage({ type: 'progress' })
})`,
    )
    const { lines, logger } = recordingLogger()
    const projector = startProjectionThread({ script: echo, settings, logger })
    let woken = 0
    projector.onProgress(() => woken++)
    projector.start()
    projector.nudge(3)
    projector.hurry()
    await until(() => woken === 2)
    await projector.stop({ drainMs: 1234 })
    expect(lines).toEqual([
      { level: 'info', msg: 'thread up', fields: { roundSize: 10 } },
      { level: 'debug', msg: 'nudge', fields: { count: 3 } },
      { level: 'debug', msg: 'hurry', fields: { count: null } },
      { level: 'warn', msg: 'draining', fields: { drainMs: 1234 } },
    ])
  })

  it('starts a thread that died again, and not after the stop', async () => {
    const dies = script(
      'dies',
      `parentPort.postMessage({ type: 'log', level: 'info', msg: 'up' })
setTimeout(() => process.exit(3), 20)`,
    )
    const { lines, logger } = recordingLogger()
    const projector = startProjectionThread({ script: dies, settings, logger, restartMs: 10 })
    projector.start()
    await until(() => lines.filter((l) => l.msg === 'up').length >= 2)
    await projector.stop()
    const ups = lines.filter((l) => l.msg === 'up').length
    expect(lines).toContainEqual({
      level: 'error',
      msg: 'projection thread exited; starting it again',
      fields: { code: 3, in_ms: 10 },
    })
    await new Promise((r) => setTimeout(r, 100))
    expect(lines.filter((l) => l.msg === 'up').length).toBe(ups)
  })

  it('says why a thread failed', async () => {
    const throws = script('throws', `throw new Error('no database here')`)
    const { lines, logger } = recordingLogger()
    const projector = startProjectionThread({ script: throws, settings, logger, restartMs: 60_000 })
    projector.start()
    await until(() => lines.some((l) => l.msg === 'projection thread exited; starting it again'))
    await projector.stop()
    expect(lines[0]).toEqual({
      level: 'error',
      msg: 'projection thread failed',
      fields: { error: 'no database here' },
    })
  })

  it('terminates a thread that does not end within its drain and grace', async () => {
    const stuck = script('stuck', `parentPort.on('message', () => {})`)
    const { logger } = recordingLogger()
    const projector = startProjectionThread({ script: stuck, settings, logger, graceMs: 50 })
    projector.start()
    const started = Date.now()
    await projector.stop({ drainMs: 50 })
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})
