import { generateUuid } from './ids'
import type { Payload, SessionEndStatus } from './options'
import { isoTime } from './payload'
import { unrefTimeout } from './timers'

/** How long a changed session waits for more changes before its update is sent. */
const DEBOUNCE_MS = 1000

/** The current release-health session of a client (see {@link createSessions}). */
export interface Sessions {
  /** Ends the current session (`exited`), starts one; sent at once unless `lazy`. */
  start_(did?: string | number, lazy?: boolean): void
  /** Ends the current session with `status`, sending its final update; `false` drops it unsent. */
  end_(status: SessionEndStatus | false): void
  /** Counts a handled error; the update follows within {@link DEBOUNCE_MS}. */
  error_(): void
  /** Sends the pending update now, if the session changed since the last one. */
  update_(): void
}

/**
 * One session at a time, as Sentry's SDKs keep it: each update carries the whole state, `init`
 * only on the first one sent, and a terminal status ends it (no update after).
 */
export function createSessions(send: (session: Payload) => void): Sessions {
  let sid: string | undefined
  let did: string | undefined
  let init = true
  let started = 0
  let status = 'ok'
  let errors = 0
  let dirty = false
  let timer: ReturnType<typeof setTimeout> | undefined

  function update_() {
    clearTimeout(timer)
    timer = undefined
    if (!sid || !dirty) return
    dirty = false
    const now = Date.now()
    const at = isoTime(now)
    send({
      sid,
      did,
      seq: now,
      init,
      started: isoTime(started),
      timestamp: at,
      duration: (now - started) / 1000,
      status,
      errors,
    })
    init = false
    if (status !== 'ok') sid = undefined
  }

  function end_(end: SessionEndStatus | false) {
    if (end) {
      status = end
      dirty = true
      update_()
    }
    sid = undefined
  }

  return {
    start_(user, lazy) {
      end_('exited')
      sid = generateUuid()
      did = user?.toString()
      init = true
      started = Date.now()
      status = 'ok'
      errors = 0
      // An untouched lazy session is first sent when it changes or ends.
      dirty = !lazy
      update_()
    },
    end_,
    error_() {
      if (!sid) return
      errors++
      dirty = true
      timer ??= unrefTimeout(update_, DEBOUNCE_MS)
    },
    update_,
  }
}
