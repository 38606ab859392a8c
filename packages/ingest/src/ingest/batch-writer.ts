import { StoreError } from '../errors'
import type { AcceptanceStore, WriteOp, WriteResult } from '../ports'

/** Options of {@link createBatchWriter}. */
export interface BatchWriterOptions {
  /**
   * Most records written in one transaction.
   * @default 200
   */
  readonly maxRows?: number
  /**
   * Longest a record waits for others to join its batch, in milliseconds.
   * @default 2
   */
  readonly maxDelayMs?: number
  /**
   * Batches written at the same time (1 for an embedded single-connection store).
   * @default 1
   */
  readonly concurrency?: number
  /**
   * Records that must be waiting before a batch starts while another is still being written
   * (with `concurrency` above 1). Small parallel batches each pay a commit and contend for the
   * same hot rows; waiting lets the next batch gather what arrives meanwhile.
   * @default 32
   */
  readonly parallelMinRows?: number
  /** Told about each failed batch before its records are retried one by one. */
  readonly onBatchError?: (error: unknown, size: number) => void
}

/** Group commit: concurrent requests share one durable write. */
export interface BatchWriter {
  /** Queues a record; resolves once the batch holding it is committed, rejects if it is not. */
  write(op: WriteOp): Promise<WriteResult>
  /** Resolves once everything queued so far is committed or failed. */
  flush(): Promise<void>
  /** Flushes, then refuses new writes. */
  close(): Promise<void>
}

interface Pending {
  readonly op: WriteOp
  resolve(result: WriteResult): void
  reject(error: unknown): void
}

/**
 * Collects records from concurrent requests and writes them together: a batch leaves when it is
 * full, when `maxDelayMs` has passed since its first record, or as soon as the running batch
 * commits. Up to `concurrency` batches are written at once, the later ones only once
 * `parallelMinRows` records wait.
 * Each caller's promise settles only after its batch committed, so an acknowledgement always
 * means durable. A failed batch is retried record by record, so one bad record cannot fail the
 * others.
 */
export function createBatchWriter(
  store: AcceptanceStore,
  options: BatchWriterOptions = {},
): BatchWriter {
  const maxRows = options.maxRows ?? 200
  const maxDelayMs = options.maxDelayMs ?? 2
  const concurrency = options.concurrency ?? 1
  const parallelMinRows = Math.min(options.parallelMinRows ?? 32, maxRows)
  let queue: Pending[] = []
  let inFlight = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false
  let idle: Array<() => void> = []

  function settleIdle() {
    if (queue.length === 0 && inFlight === 0) {
      const waiters = idle
      idle = []
      for (const resolve of waiters) resolve()
    }
  }

  function drain() {
    if (timer) {
      clearTimeout(timer)
      timer = undefined
    }
    // Another batch starts alongside a running one only once enough records wait for it.
    while (
      queue.length > 0 &&
      (inFlight === 0 || (inFlight < concurrency && queue.length >= parallelMinRows))
    ) {
      const batch = queue.length <= maxRows ? queue : queue.slice(0, maxRows)
      queue = queue.length <= maxRows ? [] : queue.slice(maxRows)
      inFlight++
      void run(batch).finally(() => {
        inFlight--
        if (queue.length > 0) drain()
        else settleIdle()
      })
    }
  }

  async function run(batch: Pending[]) {
    try {
      const results = await store.writeBatch(batch.map((p) => p.op))
      batch.forEach((p, i) => {
        const result = results[i]
        if (result) p.resolve(result)
        else p.reject(new Error('the store returned fewer results than records'))
      })
    } catch (error) {
      // An unavailable database fails every record alike: answer them all at once (503) rather
      // than retrying each one against a store that is down.
      if (batch.length === 1 || (StoreError.is(error) && error.code === 'unavailable')) {
        for (const p of batch) p.reject(error)
        return
      }
      options.onBatchError?.(error, batch.length)
      for (const p of batch) await run([p])
    }
  }

  return {
    write(op) {
      if (closed) return Promise.reject(new Error('the batch writer is closed'))
      return new Promise<WriteResult>((resolve, reject) => {
        queue.push({ op, resolve, reject })
        if (
          (inFlight === 0 && (queue.length >= maxRows || maxDelayMs <= 0)) ||
          (inFlight > 0 && inFlight < concurrency && queue.length >= parallelMinRows)
        ) {
          drain()
        } else if (!timer && inFlight === 0) timer = setTimeout(drain, maxDelayMs)
      })
    },
    flush() {
      drain()
      return new Promise<void>((resolve) => {
        idle.push(resolve)
        settleIdle()
      })
    },
    async close() {
      closed = true
      await this.flush()
    },
  }
}
