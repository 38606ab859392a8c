import type { JsonObject } from '../keys'
import { readSessionAggregate, readSessionUpdate, type SessionRecord } from '../sessions/session'
import { sentryCheckInEnvelope } from './check-in'
import { obj } from './common'
import { jsonObjectOf, parseSentryEnvelope, type SentryEnvelopeItem } from './envelope'
import { sentryEventEnvelope } from './event'
import { sentryLogEnvelopes } from './log'
import { sentrySpanEnvelopes } from './span'
import { sentryTransactionEnvelopes } from './transaction'

/** A record a Sentry envelope carries, as the native envelope of its endpoint. */
export type SentryRecord =
  | { readonly kind: 'event'; readonly envelope: { event: JsonObject } }
  | { readonly kind: 'check_in'; readonly envelope: { check_in: JsonObject } }
  | {
      readonly kind: 'session'
      readonly session: SessionRecord
      /**
       * What makes an aggregate the same one again (a replayed envelope): its envelope's
       * `sent_at`, place and content; empty for an update, which the status machine counts once
       * however often it arrives.
       */
      readonly identity: string
    }

/** What {@link sentryEnvelopeRecords} found. */
export interface SentryRecords {
  /** The records to store, in envelope order. */
  readonly records: readonly SentryRecord[]
  /** Items accepted and counted but not stored (`session`, `client_report`, `attachment`, …), by type. */
  readonly ignored: Readonly<Record<string, number>>
  /** `session` and `sessions` items left out as unusable (no release, too old, …), and why. */
  readonly dropped: readonly string[]
  /**
   * Items whose records tis stores (`event`, `transaction`, `span`, `check_in`, `log`): what the
   * envelope counts against the rate limit, as Sentry counts a transaction once with its spans.
   */
  readonly storedItems: number
  /** The envelope header's `event_id` (the answer's `id`), else the first event's. */
  readonly eventId: string | null
  /** The envelope header (its `dsn` names the key of a tunnelled envelope); none for `store`. */
  readonly header?: JsonObject
}

/**
 * The outcome: the records, or why the envelope is malformed (a 400), with the envelope header
 * when it was read.
 */
export type SentryRecordsResult =
  | ({ readonly ok: true } & SentryRecords)
  | { readonly ok: false; readonly message: string; readonly header?: JsonObject }

/** The item types whose records tis stores. */
export const SENTRY_STORED_ITEM_TYPES = [
  'event',
  'transaction',
  'span',
  'check_in',
  'log',
  'session',
  'sessions',
] as const

/**
 * The record of a `session` or `sessions` item, or why it is dropped: a malformed session
 * never fails its envelope (Relay drops it and keeps the rest).
 */
function sessionOfItem(
  item: SentryEnvelopeItem,
  index: number,
  header: JsonObject,
  now: Date,
): SentryRecord | string {
  const payload = jsonObjectOf(item.payload)
  if (!payload) return `item ${index + 1} (${item.type}): its payload is not a JSON object`
  const read =
    item.type === 'session' ? readSessionUpdate(payload, now) : readSessionAggregate(payload, now)
  if (!read.ok) return `item ${index + 1} (${item.type}): ${read.errors.join('; ')}`
  // An update needs none: the status machine counts a repeat once.
  const identity =
    read.value.kind === 'update'
      ? ''
      : JSON.stringify([String(header['sent_at'] ?? ''), index, read.value])
  return { kind: 'session', session: read.value, identity }
}

function recordsOfItem(
  item: SentryEnvelopeItem,
  payload: JsonObject,
  header: JsonObject,
): SentryRecord[] {
  switch (item.type) {
    case 'event': {
      // An event without its own id takes the envelope's (SDKs put it in both).
      const event =
        payload['event_id'] === undefined ? { ...payload, event_id: header['event_id'] } : payload
      return [{ kind: 'event', envelope: sentryEventEnvelope(event) }]
    }
    case 'transaction': {
      const tx =
        payload['event_id'] === undefined ? { ...payload, event_id: header['event_id'] } : payload
      return sentryTransactionEnvelopes(tx).map((envelope) => ({ kind: 'event', envelope }))
    }
    case 'check_in':
      return [{ kind: 'check_in', envelope: sentryCheckInEnvelope(payload) }]
    case 'log':
      return sentryLogEnvelopes(payload).map((envelope) => ({ kind: 'event', envelope }))
    case 'span':
      return sentrySpanEnvelopes(payload).map((envelope) => ({ kind: 'event', envelope }))
    default:
      return []
  }
}

/**
 * The records of a Sentry envelope (`POST /api/<project>/envelope/`): `event`, `transaction`,
 * `span`, `check_in` and `log` items as native envelopes, `session` and `sessions` items as
 * session records (an unusable one dropped, not failing the envelope); every other item type is accepted and counted
 * (Sentry's protocol: a server ignores what it does not know, so newer SDKs keep working).
 * Malformed: the envelope itself (see {@link parseSentryEnvelope}), or a stored item whose
 * payload is not a JSON object.
 */
export function sentryEnvelopeRecords(
  body: Uint8Array,
  now: Date = new Date(),
): SentryRecordsResult {
  const parsed = parseSentryEnvelope(body)
  if (!parsed.ok) return parsed
  const { header, items } = parsed.envelope
  const records: SentryRecord[] = []
  const ignored: Record<string, number> = {}
  const dropped: string[] = []
  let storedItems = 0
  for (const [i, item] of items.entries()) {
    if (!(SENTRY_STORED_ITEM_TYPES as readonly string[]).includes(item.type)) {
      ignored[item.type] = (ignored[item.type] ?? 0) + 1
      continue
    }
    if (item.type === 'session' || item.type === 'sessions') {
      const session = sessionOfItem(item, i, header, now)
      if (typeof session === 'string') dropped.push(session)
      else records.push(session)
      storedItems += 1
      continue
    }
    const payload = jsonObjectOf(item.payload)
    if (!payload) {
      return {
        ok: false,
        message: `item ${i + 1} (${item.type}): its payload is not a JSON object`,
        header,
      }
    }
    records.push(...recordsOfItem(item, payload, header))
    storedItems += 1
  }
  const first = records.find((r) => r.kind === 'event')
  const eventId = typeof header['event_id'] === 'string' ? header['event_id'] : null
  return {
    ok: true,
    records,
    ignored,
    dropped,
    storedItems,
    header,
    eventId:
      eventId ??
      (first
        ? (((first.envelope as { event: JsonObject }).event['event_id'] as string | undefined) ??
          null)
        : null),
  }
}

/** The body of the older `POST /api/<project>/store/`: one event as JSON. */
export function sentryStoreRecords(body: Uint8Array): SentryRecordsResult {
  const payload = jsonObjectOf(body)
  if (!payload) return { ok: false, message: 'the body is not a JSON object (a Sentry event)' }
  const isTransaction = payload['type'] === 'transaction'
  const records: SentryRecord[] = isTransaction
    ? sentryTransactionEnvelopes(payload).map((envelope) => ({ kind: 'event', envelope }))
    : [{ kind: 'event', envelope: sentryEventEnvelope(payload) }]
  const eventId =
    obj(payload) && typeof payload['event_id'] === 'string' ? payload['event_id'] : null
  return { ok: true, records, ignored: {}, dropped: [], storedItems: 1, eventId }
}
