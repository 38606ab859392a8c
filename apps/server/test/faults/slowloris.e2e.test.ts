// Fault: slowloris. 200 connections trickle one byte per second — 150 of them a request body
// after complete headers, 50 the headers themselves — while normal clients keep sending. The
// server answers the normal requests promptly all along, closes every slow connection within a
// bounded time (SERVICE_REQUEST_TIMEOUT_SECONDS, lowered to 3 s here; headers 10 s or that) and
// never stores a partial body.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type FaultServer,
  openRaw,
  type RawConnection,
  requestHead,
  sleep,
  startFaultServer,
  storedMessages,
} from './in-process'

const TIMEOUT_SECONDS = 3
const SLOW_BODIES = 150
const SLOW_HEADERS = 50

describe('fault: slowloris (200 connections trickling a byte per second)', () => {
  let fault: FaultServer
  beforeAll(async () => {
    fault = await startFaultServer({ SERVICE_REQUEST_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) })
  })
  afterAll(() => fault?.close())

  it('stays responsive and closes the slow connections in bounded time', {
    timeout: 60_000,
  }, async () => {
    const { url, port, key } = fault
    const started = performance.now()
    const slow: RawConnection[] = []
    let trickling = true
    const trickle = async (conn: RawConnection, bytes: string) => {
      for (const byte of bytes) {
        if (!trickling || conn.socket.destroyed) return
        conn.socket.write(byte)
        await sleep(1_000)
      }
    }
    const trickles: Promise<void>[] = []
    for (let i = 0; i < SLOW_BODIES + SLOW_HEADERS; i++) {
      const conn = await openRaw(port)
      slow.push(conn)
      const path = i % 2 ? '/api/v1/ingest_events/batch' : '/api/v1/ingest_events'
      const whole = JSON.stringify({
        event: { event_type: 'log', message: `slow ${i}`, event_id: randomUUID() },
      })
      if (i < SLOW_BODIES) {
        conn.socket.write(requestHead(path, key, Buffer.byteLength(whole)))
        trickles.push(trickle(conn, whole))
      } else trickles.push(trickle(conn, requestHead(path, key, Buffer.byteLength(whole)) + whole))
    }

    // Normal requests, one after another, while the slow connections hang on.
    const latencies: number[] = []
    const statuses: number[] = []
    while (performance.now() - started < (TIMEOUT_SECONDS + 2) * 1000) {
      const t = performance.now()
      const res = await fetch(`${url}/api/v1/ingest_events`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({
          event: { event_type: 'log', message: `normal ${latencies.length}` },
        }),
      })
      await res.text()
      statuses.push(res.status)
      latencies.push(performance.now() - t)
      await sleep(50)
    }

    // Every slow connection is closed by the server within the bound.
    const bound = started + (TIMEOUT_SECONDS + 3) * 1000
    const closedAt = await Promise.all(
      slow.map((c) =>
        Promise.race([c.closed, sleep(bound - performance.now() + 1_000).then(() => Infinity)]),
      ),
    )
    trickling = false
    await Promise.all(trickles)
    const lastClose = Math.max(...closedAt) - started
    const answered408 = slow.filter((c) => c.received().startsWith('HTTP/1.1 408')).length
    console.info(
      `slowloris: ${slow.length} slow connections all closed ${Math.round(lastClose)} ms after the first opened ` +
        `(${answered408} answered 408); ${statuses.length} normal requests, slowest ${Math.round(Math.max(...latencies))} ms`,
    )
    expect(statuses.filter((s) => s !== 201)).toEqual([])
    expect(statuses.length).toBeGreaterThan(20)
    expect(Math.max(...latencies), 'normal requests answered promptly').toBeLessThan(1_000)
    expect(closedAt.filter((t) => t === Infinity).length, 'slow connections still open').toBe(0)
    expect(lastClose).toBeLessThan((TIMEOUT_SECONDS + 3) * 1000)
    expect(await storedMessages(fault, 'slow')).toEqual([])
    expect((await fetch(`${url}/health`)).status).toBe(200)
  })
})
