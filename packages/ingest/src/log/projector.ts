import { createLoop } from '../loop'
import type { ProjectionStore } from './ports'

/** Options of {@link createProjector}. */
export interface ProjectorOptions {
  /** The log's projection side. */
  readonly store: Pick<ProjectionStore, 'project' | 'maintainLog'>
  /**
   * Most entries projected in one transaction. Larger rounds are cheaper per entry (index pages
   * and issue rows are touched once per round); on a single-connection store (PGlite) every
   * request waits behind a running round, so keep it smaller there.
   * @default 1000
   */
  readonly roundSize?: number
  /**
   * How long an idle projector waits before looking at the log again when nothing in this
   * process appended (other processes' appends, a busy peer), in ms.
   * @default 250
   */
  readonly idleMs?: number
  /**
   * Longest a nudged projector lets appends gather before its round, in ms: under load, rounds
   * grow large (cheaper per entry: index pages and issue rows are touched once per round, and
   * the projection takes less of the processor acceptance needs) instead of one small
   * transaction per append. It starts at once when `gather` entries have been appended, or
   * when a read waits for the projection ({@link Projector.hurry}).
   * @default 250
   */
  readonly lingerMs?: number
  /** Entries appended (as {@link Projector.nudge} counts them) that start a round at once. @default roundSize / 2 */
  readonly gather?: number
  /**
   * How often the log's partitions are maintained (created ahead, read ones dropped), in ms.
   * @default 3600000 (hourly, and once at start)
   */
  readonly maintainEveryMs?: number
  /** Pause after a failed round before the next, in ms. @default 1000 */
  readonly retryMs?: number
  /**
   * Told about a failed round or maintenance (the projector goes on), or a failed round of the
   * drain at {@link Projector.stop} (what is left is projected at the next start).
   */
  readonly onError?: (error: unknown, during: 'projection' | 'maintenance' | 'drain') => void
  /** @default () => new Date() */
  readonly now?: () => Date
}

/** A projection loop: runs rounds while entries are waiting, sleeps when caught up. */
export interface Projector {
  /** Starts the loop (idempotent). */
  start(): void
  /**
   * Says that `count` entries were appended: the loop runs a round once `gather` entries wait,
   * or `lingerMs` after the first nudge.
   */
  nudge(count?: number): void
  /** Says that a read waits for the projection: the next round starts now. */
  hurry(): void
  /** Calls `listener` after every round that projected something; returns the unsubscribe. */
  onProgress(listener: () => void): () => void
  /**
   * Lets the running round finish and stops the loop; with `drainMs`, then projects what is
   * still pending for up to that long (a graceful stop leaves the read model complete; the log
   * keeps whatever is left for the next start).
   */
  stop(options?: { readonly drainMs?: number }): Promise<void>
}

/**
 * The projector that runs inside the server (and in `tis worker`): rounds of up to `roundSize`
 * entries back to back while the log is ahead, then sleeps until {@link Projector.nudge} or
 * `idleMs`. Exactly-once is the store's: each round moves the position in its own transaction,
 * and several projectors over one database take turns (a busy round does nothing).
 */
export function createProjector(options: ProjectorOptions): Projector {
  const { store } = options
  const roundSize = options.roundSize ?? 1000
  const idleMs = options.idleMs ?? 250
  const maintainEveryMs = options.maintainEveryMs ?? 3_600_000
  const lingerMs = options.lingerMs ?? 250
  const gather = Math.max(1, options.gather ?? Math.floor(roundSize / 2))
  const now = options.now ?? (() => new Date())
  const listeners = new Set<() => void>()
  let nudged = false
  let hurried = false
  /** Entries appended since the last round started. */
  let pending = 0
  let lingering = false
  let maintainedAt = Number.NEGATIVE_INFINITY

  async function maintain() {
    const at = now()
    if (at.getTime() - maintainedAt < maintainEveryMs) return
    maintainedAt = at.getTime()
    await store.maintainLog(at).catch((error: unknown) => options.onError?.(error, 'maintenance'))
  }

  async function projectRound() {
    const round = await store.project(roundSize)
    if (round.projected > 0) for (const listener of listeners) listener()
    return round
  }

  const loop = createLoop({
    intervalMs: 0,
    retryMs: options.retryMs ?? 1000,
    // `tis worker` has nothing else keeping its process alive.
    keepAlive: true,
    onError: (error) => options.onError?.(error, 'projection'),
    async round({ signal, sleep }) {
      await maintain()
      nudged = false
      pending = 0
      const { more } = await projectRound()
      if (more || signal.aborted) return 0
      if (!nudged && !hurried) await sleep(idleMs)
      // Let what is being appended now join the next round, unless a read waits for it.
      if (nudged && !hurried && !signal.aborted && lingerMs > 0 && pending < gather) {
        lingering = true
        await sleep(lingerMs)
        lingering = false
      }
      hurried = false
      return 0
    },
  })

  return {
    start: () => loop.start(),
    nudge(count = 1) {
      pending += count
      if (!nudged) {
        nudged = true
        if (!lingering) loop.wake()
      }
      if (lingering && pending >= gather) loop.wake()
    },
    hurry() {
      hurried = true
      loop.wake()
    },
    onProgress(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async stop(stopOptions = {}) {
      await loop.stop()
      const end = Date.now() + (stopOptions.drainMs ?? 0)
      try {
        while (Date.now() < end) {
          const round = await projectRound()
          if (round.busy || !round.more) break
        }
      } catch (error) {
        options.onError?.(error, 'drain')
      }
    },
  }
}
