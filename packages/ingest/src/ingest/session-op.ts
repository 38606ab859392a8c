import type { SessionRecord } from '@tis/schema'
import { uuidFromParts } from '../ids'
import type { CredentialRecord, WriteOp } from '../ports'

/**
 * The write of an accepted session update or aggregate (docs/release-health.md). Its id is
 * derived from the project and the record's `identity` (an update's whole state; an aggregate's
 * place and content, and the envelope's `sent_at`). An aggregate is deduplicated on the log by
 * that id (a replayed envelope is a repeat, acknowledged once); an update is not, as the status
 * machine already counts a repeated update once. A mobile token's release and environment are the
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
    id: uuidFromParts('session', credential.projectId.toLowerCase(), identity),
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
  return session.kind === 'update'
    ? JSON.stringify(session)
    : JSON.stringify([at.toISOString(), session])
}
