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
  /**
   * Queues an all-or-nothing group (a batch request): written in its turn, in one transaction
   * of its own with `allOrNothing`, so another request's record can never make it fail, nor it
   * another's. Resolves with one result per op once committed; rejects as a whole, never retried
   * op by op.
   */
  writeGroup(ops: readonly WriteOp[]): Promise<readonly WriteResult[]>
  /** Resolves once everything queued so far is committed or failed. */
  flush(): Promise<void>
  /** Flushes, then refuses new writes. */
  close(): Promise<void>
}

interface Pending {
  readonly ops: readonly WriteOp[]
  /** An all-or-nothing group ({@link BatchWriter.writeGroup}), written alone. */
  readonly group: boolean
  resolve(results: readonly WriteResult[]): void
  reject(error: unknown): void
}

/**
 * Collects records from concurrent requests and writes them together: a batch leaves when it is
 * full, when `maxDelayMs` has passed since its first record, or as soon as the running batch
 * commits. Up to `concurrency` batches are written at once, the later ones only once
 * `parallelMinRows` records wait. All-or-nothing groups share the queue, the concurrency and
 * `flush`, and are each written alone in their turn: single records and batch requests take one
 * write path to the one port call, {@link AcceptanceStore.append}.
 * Each caller's promise settles only after its batch committed, so an acknowledgement always
 * means durable. A failed batch of single records is retried record by record, so one bad
 * record cannot fail the others.
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
  /** Records waiting in `queue` (a group counts each of its ops). */
  let queuedRows = 0
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

  /** The next batch: a group alone, or the single records ahead of the next group. */
  function take(): Pending[] {
    let end = 0
    if (queue[0]?.group) end = 1
    else while (end < queue.length && end < maxRows && !queue[end]?.group) end++
    const batch = queue.slice(0, end)
    queue = queue.slice(end)
    for (const p of batch) queuedRows -= p.ops.length
    return batch
  }

  function drain() {
    if (timer) {
      clearTimeout(timer)
      timer = undefined
    }
    // Another batch starts alongside a running one only once enough records wait for it.
    while (
      queue.length > 0 &&
      (inFlight === 0 || (inFlight < concurrency && queuedRows >= parallelMinRows))
    ) {
      const batch = take()
      inFlight++
      void run(batch).finally(() => {
        inFlight--
        if (queue.length > 0) drain()
        else settleIdle()
      })
    }
  }

  async function run(batch: Pending[]) {
    const group = batch.length === 1 && batch[0]?.group ? batch[0] : undefined
    try {
      const ops = group ? group.ops : batch.map((p) => p.ops[0] as WriteOp)
      const results = await store.append(ops, group ? { allOrNothing: true } : undefined)
      if (results.length < ops.length)
        throw new Error('the store returned fewer results than records')
      if (group) group.resolve(results)
      else
        batch.forEach((p, i) => {
          p.resolve([results[i] as WriteResult])
        })
    } catch (error) {
      // An unavailable database fails every record alike: answer them all at once (503) rather
      // than retrying each one against a store that is down. A group fails as a whole.
      if (group || batch.length === 1 || (StoreError.is(error) && error.code === 'unavailable')) {
        for (const p of batch) p.reject(error)
        return
      }
      options.onBatchError?.(error, batch.length)
      for (const p of batch) await run([p])
    }
  }

  function enqueue(ops: readonly WriteOp[], group: boolean): Promise<readonly WriteResult[]> {
    if (closed) return Promise.reject(new Error('the batch writer is closed'))
    return new Promise<readonly WriteResult[]>((resolve, reject) => {
      queue.push({ ops, group, resolve, reject })
      queuedRows += ops.length
      if (
        // A group gains nothing by waiting for others: it is written alone.
        (inFlight === 0 && (group || queuedRows >= maxRows || maxDelayMs <= 0)) ||
        (inFlight > 0 && inFlight < concurrency && queuedRows >= parallelMinRows)
      ) {
        drain()
      } else if (!timer && inFlight === 0) timer = setTimeout(drain, maxDelayMs)
    })
  }

  return {
    async write(op) {
      const [result] = await enqueue([op], false)
      return result as WriteResult
    },
    async writeGroup(ops) {
      if (ops.length === 0) return []
      return enqueue(ops, true)
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
