import type { SessionRecord } from '@tis/schema'
import { uuidFromParts, uuidv7 } from '../ids'
import type { CredentialRecord, WriteOp } from '../ports'

/**
 * The write of an accepted session update or aggregate (docs/release-health.md). An aggregate's
 * id is derived from the project and its `identity` (its place and content, and the envelope's
 * `sent_at`) and deduplicated on the log: a replayed envelope is a repeat, acknowledged once. An
 * update is not deduplicated (the status machine already counts a repeated update once) and
 * takes a fresh id; its `identity` is unused. A mobile token's release and environment are the
 * session's, as they are its events'.
 */
export function sessionOp(
  sent: SessionRecord,
  identity: string,
  credential: CredentialRecord,
  at: Date,
): WriteOp {
  const binding = credential.binding
  const session: SessionRecord = binding
    ? { ...sent, release: binding.release ?? sent.release, environment: binding.environment }
    : sent
  return {
    type: 'session',
    // An update is not deduplicated on the log (the status machine counts a repeat once): a
    // fresh id. An aggregate's id is its identity's, so a replay is a repeat.
    id:
      session.kind === 'aggregate'
        ? uuidFromParts('session', credential.projectId.toLowerCase(), identity)
        : uuidv7(at.getTime()),
    projectId: credential.projectId,
    receivedAt: at,
    // An update needs no idempotency key: the status machine counts a repeat once by itself.
    dedupe: session.kind === 'aggregate',
    session,
  }
}

/**
 * The identity of a session record sent to `POST /api/v1/sessions`: an update's whole state; an
 * aggregate's content and the receive time, as an aggregate names no update of its own (our
 * SDKs send each minute's counts once; a retried request is told apart by nothing else).
 */
export function nativeSessionIdentity(session: SessionRecord, at: Date): string {
  return session.kind === 'update' ? '' : JSON.stringify([at.toISOString(), session])
}
