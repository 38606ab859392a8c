import { randomBytes, randomUUID } from 'node:crypto'

/** What a load run sent and what the server acknowledged. */
export interface Acknowledged {
  /** id → message of every single event answered 201. */
  readonly singles: Map<string, string>
  /** event_id → message of every line of every batch answered 2xx with all lines accepted. */
  readonly batchLines: Map<string, string>
  /** Every message sent, answered or not. */
  readonly sent: Set<string>
}

/** Options of {@link startIngestLoad}. */
export interface IngestLoadOptions {
  /** Loops sending one event per request. */
  readonly singleWorkers: number
  /** Loops sending NDJSON batches. */
  readonly batchWorkers: number
  /** Lines per batch. */
  readonly batchSize: number
}

/**
 * Sends events to `url` from concurrent loops, each waiting for its answer before the next
 * request, until `stop()` or until the server stops answering (the request in flight then
 * counts as never acknowledged).
 */
export function startIngestLoad(url: string, apiKey: string, options: IngestLoadOptions) {
  const acked: Acknowledged = { singles: new Map(), batchLines: new Map(), sent: new Set() }
  const tag = randomBytes(3).toString('hex')
  let stopped = false
  const post = (path: string, contentType: string, body: string) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': contentType },
      body,
    })

  const single = async (w: number) => {
    for (let n = 0; !stopped; n++) {
      const message = `single ${tag} ${w}-${n}`
      acked.sent.add(message)
      const event = { event_type: 'error', message, fingerprint: `w${w % 3}` }
      const res = await post('/api/v1/ingest_events', 'application/json', JSON.stringify({ event }))
      const body = (await res.json()) as { id?: string }
      if (res.status === 201 && body.id) acked.singles.set(body.id, message)
    }
  }
  const batch = async (w: number) => {
    for (let n = 0; !stopped; n++) {
      const lines = Array.from({ length: options.batchSize }, (_, i) => ({
        event_id: randomUUID(),
        event_type: 'log',
        message: `batch ${tag} ${w}-${n}-${i}`,
      }))
      for (const line of lines) acked.sent.add(line.message)
      const text = lines.map((event) => JSON.stringify({ event })).join('\n')
      const res = await post('/api/v1/ingest_events/batch', 'application/x-ndjson', text)
      const body = (await res.json()) as { accepted?: number }
      if (res.ok && body.accepted === lines.length) {
        for (const line of lines) acked.batchLines.set(line.event_id, line.message)
      }
    }
  }
  // A loop ends at the first failed request: the server is gone.
  const loops = [
    ...Array.from({ length: options.singleWorkers }, (_, w) => single(w).catch(() => {})),
    ...Array.from({ length: options.batchWorkers }, (_, w) => batch(w).catch(() => {})),
  ]
  return {
    acked,
    /** Ends the loops (after their request in flight) and resolves once they have. */
    async stop() {
      stopped = true
      await Promise.all(loops)
    },
  }
}
