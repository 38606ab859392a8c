// The events of the source-map bench, accepted as the server accepts them: Sentry envelopes
// from a browser SDK handed to the real engine's `ingestSentry`, which maps them, builds the
// write ops (grouping included) and group-commits them onto the ingest log with `append`.
import { randomUUID } from 'node:crypto'
import { createIngestApi, type IngestApi } from '@tis/ingest'
import type { PostgresIngestStore } from '@tis/storage-postgres'
import type { MappedPosition } from './sourcemap-positions'

/** Where a frame points: the bundle's URL (JavaScript) or a Python file (no JavaScript). */
export type FrameKind = 'js' | 'plain'

/** The bundle the JavaScript events point into. */
export interface EventTarget {
  /** e.g. `https://shop.example/assets/app-3f2a9c1d.js`. */
  readonly url: string
  readonly debugId: string
  readonly release: string
}

/** The Sentry event of stack `stack` (frames oldest first, as Sentry sends them). */
export function sentryEvent(
  eventId: string,
  stack: readonly MappedPosition[],
  kind: FrameKind,
  t: EventTarget,
) {
  const frames = stack.map((p, i) =>
    kind === 'js'
      ? {
          filename: t.url,
          function: String.fromCharCode(97 + (i % 26)),
          lineno: p.lineno,
          colno: p.colno,
          in_app: true,
        }
      : {
          filename: `app/shop/module_${p.source}.py`,
          function: `step_${i}`,
          lineno: p.lineno + p.source,
          colno: p.colno % 80,
          in_app: true,
        },
  )
  return {
    event_id: eventId,
    timestamp: Date.now() / 1000,
    platform: kind === 'js' ? 'javascript' : 'python',
    level: 'error',
    environment: 'production',
    release: t.release,
    exception: {
      values: [
        {
          type: 'TypeError',
          value: "Cannot read properties of undefined (reading 'price')",
          stacktrace: { frames },
          mechanism: { type: 'onerror', handled: false },
        },
      ],
    },
    request: {
      url: 'https://shop.example/checkout',
      headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' },
    },
    ...(kind === 'js'
      ? { debug_meta: { images: [{ type: 'sourcemap', code_file: t.url, debug_id: t.debugId }] } }
      : {}),
    sdk: { name: 'sentry.javascript.browser', version: '10.27.0' },
  }
}

/** The project the events go to: its Sentry number and DSN key. */
export interface EventProject {
  readonly number: number
  readonly sentryKey: string
}

/** The engine's ingestion API over the store's log, with the rate limit out of the way. */
export function benchIngestApi(store: PostgresIngestStore): IngestApi {
  return createIngestApi({
    acceptance: { append: (batch, options) => store.append(batch, options) },
    credentials: store,
    mobileTokens: store,
    rateLimits: { requests: 1_000_000_000 },
  })
}

/**
 * Accepts `count` Sentry events for `project` through `api` (64 requests in flight), the `n`th
 * built by `eventOf(id, n)`; resolves the event ids once every one is durable on the log.
 */
export async function acceptEvents(
  api: IngestApi,
  project: EventProject,
  count: number,
  eventOf: (eventId: string, n: number) => object,
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID().replaceAll('-', ''))
  const headers = {
    'content-type': 'application/x-sentry-envelope',
    'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${project.sentryKey}, sentry_client=sentry.javascript.browser/10.27.0`,
  }
  const encoder = new TextEncoder()
  let next = 0
  const worker = async () => {
    while (next < ids.length) {
      const n = next++
      const id = ids[n] as string
      const envelope = [
        { event_id: id, sent_at: new Date().toISOString() },
        { type: 'event' },
        eventOf(id, n),
      ]
      const bytes = encoder.encode(envelope.map((j) => JSON.stringify(j)).join('\n'))
      const answer = await api.ingestSentry(
        { headers, bytes, params: { project: String(project.number) }, query: {} },
        'envelope',
      )
      if (answer.status !== 200) {
        throw new Error(`envelope answered ${answer.status}: ${JSON.stringify(answer.body)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: 64 }, worker))
  await api.flush()
  return ids
}
