/** What a round of a {@link Loop} is given. */
export interface LoopRound {
  /** Aborted once the loop stops: a long round ends its current step and returns. */
  readonly signal: AbortSignal
  /**
   * Waits `ms`, cut short by {@link Loop.wake} or {@link Loop.stop}. The timer is unreferenced
   * unless the loop keeps the process alive (`keepAlive`).
   */
  sleep(ms: number): Promise<void>
}

/** Options of {@link createLoop}. */
export interface LoopOptions {
  /**
   * One round of the work. Resolves the pause before the next round in ms (`0`: at once), or
   * nothing for `intervalMs`. A throw is reported to `onError` and the next round waits `retryMs`.
   */
  readonly round: (round: LoopRound) => Promise<number | undefined>
  /** Pause between rounds, in ms. */
  readonly intervalMs: number
  /** Pause before the first round, in ms. @default 0 */
  readonly firstDelayMs?: number
  /** Pause after a failed round, in ms. @default intervalMs */
  readonly retryMs?: number
  /** Told about a failed round; the loop goes on. Its own throws are ignored. */
  readonly onError: (error: unknown) => void
  /**
   * Keep the process alive while the loop sleeps (a worker whose only work is this loop). By
   * default its timers are unreferenced, so a loop never holds a process open.
   * @default false
   */
  readonly keepAlive?: boolean
  /**
   * Waits between rounds instead of the loop's own timer (tests shorten the pauses); `wake` and
   * `stop` still cut it short.
   * @default a timer
   */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

/** Background work in rounds: never two at once, errors reported, stopped cleanly. */
export interface Loop {
  /** Starts the rounds (idempotent; a stopped loop can start again). */
  start(): void
  /** One round now, or the running one: resolves when it ends. Errors go to `onError`. */
  runOnce(): Promise<void>
  /** Cuts the current pause short: the next round starts now. */
  wake(): void
  /** Whether the rounds are running (started and not stopped). */
  readonly running: boolean
  /** No new round; cuts the pause short, aborts the round's signal and waits for it to end. */
  stop(): Promise<void>
}

/**
 * The one loop of the engine's background work (the projector, the alerts worker, retention,
 * the analytics drainer and its expiry): start, pause, wake, stop and error reporting in one
 * place, so every worker stops the same way and none holds the process open by accident.
 */
export function createLoop(options: LoopOptions): Loop {
  const retryMs = options.retryMs ?? options.intervalMs
  let controller: AbortController | undefined
  let done: Promise<void> | undefined
  let current: Promise<number | undefined> | undefined
  let wake: (() => void) | undefined

  function sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal.aborted || ms <= 0) return resolve()
      const timer = options.sleep ? undefined : setTimeout(finish, ms)
      if (timer && !options.keepAlive) (timer as { unref?: () => void }).unref?.()
      options.sleep?.(ms, signal).then(finish, finish)
      signal.addEventListener('abort', finish, { once: true })
      function finish() {
        if (timer) clearTimeout(timer)
        signal.removeEventListener('abort', finish)
        if (wake === finish) wake = undefined
        resolve()
      }
      wake = finish
    })
  }

  function report(error: unknown) {
    try {
      options.onError(error)
    } catch {
      // A failing reporter must not stop the work.
    }
  }

  function once(signal: AbortSignal): Promise<number | undefined> {
    current ??= (async () => {
      try {
        const pause = await options.round({ signal, sleep: (ms) => sleep(ms, signal) })
        return typeof pause === 'number' ? pause : options.intervalMs
      } catch (error) {
        report(error)
        return retryMs
      }
    })().finally(() => {
      current = undefined
    })
    return current
  }

  async function run(signal: AbortSignal) {
    await sleep(options.firstDelayMs ?? 0, signal)
    while (!signal.aborted) {
      const pause = (await once(signal)) ?? options.intervalMs
      if (!signal.aborted) await sleep(pause, signal)
    }
  }

  return {
    start() {
      if (controller) return
      controller = new AbortController()
      done = run(controller.signal)
    },
    async runOnce() {
      await once(controller?.signal ?? new AbortController().signal)
    },
    wake: () => wake?.(),
    get running() {
      return controller !== undefined
    },
    async stop() {
      const stopping = controller
      controller?.abort()
      await done
      await current
      if (controller === stopping) {
        controller = undefined
        done = undefined
      }
    },
  }
}
