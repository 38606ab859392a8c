import { describe, expect, it } from 'vitest'
import { StoreError } from '../errors'
import type { AcceptanceStore, WriteOp, WriteResult } from '../ports'
import { createBatchWriter } from './batch-writer'

/** A store that records batches and can fail on chosen records. */
function recordingStore(options: { failIds?: Set<string>; delayMs?: number } = {}) {
  const batches: string[][] = []
  /** The `allOrNothing` option of each batch, in the order of `batches`. */
  const allOrNothing: boolean[] = []
  let active = 0
  let maxActive = 0
  const store: AcceptanceStore = {
    async append(batch, writeOptions) {
      active++
      maxActive = Math.max(maxActive, active)
      try {
        await new Promise((r) => setTimeout(r, options.delayMs ?? 1))
        batches.push(batch.map((op) => op.id))
        allOrNothing.push(writeOptions?.allOrNothing === true)
        if (batch.some((op) => options.failIds?.has(op.id))) throw new Error('constraint violated')
        return batch.map((op, i): WriteResult => ({ id: op.id, legacyId: i + 1 }))
      } finally {
        active--
      }
    },
  }
  return { store, batches, allOrNothing, maxActive: () => maxActive }
}

const op = (id: string): WriteOp => ({
  type: 'check_in',
  id,
  projectId: 'p',
  receivedAt: new Date(0),
  checkIn: {} as never,
  monitor: {} as never,
})

describe('createBatchWriter', () => {
  it('writes concurrent records together in one batch', async () => {
    const { store, batches } = recordingStore()
    const writer = createBatchWriter(store, { maxDelayMs: 5 })
    const results = await Promise.all(['a', 'b', 'c'].map((id) => writer.write(op(id))))
    expect(results.map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect(batches).toEqual([['a', 'b', 'c']])
  })

  it('never puts more than maxRows records in a batch', async () => {
    const { store, batches } = recordingStore()
    const writer = createBatchWriter(store, { maxRows: 2, maxDelayMs: 5 })
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => writer.write(op(id))))
    expect(batches.every((b) => b.length <= 2)).toBe(true)
    expect(batches.flat().sort()).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  it('keeps at most `concurrency` full batches in flight', async () => {
    const { store, batches, maxActive } = recordingStore({ delayMs: 10 })
    const writer = createBatchWriter(store, { maxRows: 1, concurrency: 2 })
    await Promise.all(Array.from({ length: 6 }, (_, i) => writer.write(op(`r${i}`))))
    expect(maxActive()).toBe(2)
    expect(batches).toHaveLength(6)
  })

  it('gathers records that arrive during a write into the next batch instead of a small parallel one', async () => {
    const { store, batches, maxActive } = recordingStore({ delayMs: 20 })
    const writer = createBatchWriter(store, { maxRows: 100, maxDelayMs: 1, concurrency: 4 })
    const first = writer.write(op('a'))
    await new Promise((r) => setTimeout(r, 5))
    const rest = ['b', 'c', 'd'].map((id) => writer.write(op(id)))
    await Promise.all([first, ...rest])
    expect(maxActive()).toBe(1)
    expect(batches).toEqual([['a'], ['b', 'c', 'd']])
  })

  it('resolves a record only after its batch is written', async () => {
    const { store, batches } = recordingStore({ delayMs: 20 })
    const writer = createBatchWriter(store)
    let settled = false
    const pending = writer.write(op('x')).then(() => {
      settled = true
    })
    await new Promise((r) => setTimeout(r, 5))
    expect(settled).toBe(false)
    await pending
    expect(batches).toEqual([['x']])
  })

  it('starts a parallel batch once parallelMinRows records wait', async () => {
    const { store, batches, maxActive } = recordingStore({ delayMs: 20 })
    const writer = createBatchWriter(store, { maxDelayMs: 1, concurrency: 2, parallelMinRows: 2 })
    const first = writer.write(op('a'))
    await new Promise((r) => setTimeout(r, 5))
    await Promise.all([first, writer.write(op('b')), writer.write(op('c'))])
    expect(maxActive()).toBe(2)
    expect(batches.map((b) => b.length).sort()).toEqual([1, 2])
  })

  it('retries a failed batch record by record so one bad record fails alone', async () => {
    const { store } = recordingStore({ failIds: new Set(['bad']) })
    const errors: number[] = []
    const writer = createBatchWriter(store, {
      maxDelayMs: 5,
      onBatchError: (_e, n) => errors.push(n),
    })
    const outcomes = await Promise.allSettled(['a', 'bad', 'c'].map((id) => writer.write(op(id))))
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(errors).toEqual([3])
  })

  it('fails a whole batch at once when the store is unavailable (no per-record retries)', async () => {
    let calls = 0
    const store: AcceptanceStore = {
      async append() {
        calls++
        throw new StoreError('unavailable', 'database unavailable: connection refused')
      },
    }
    const errors: number[] = []
    const writer = createBatchWriter(store, {
      maxDelayMs: 5,
      onBatchError: (_e, n) => errors.push(n),
    })
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((id) => writer.write(op(id))))
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(calls).toBe(1)
    expect(errors).toEqual([])
  })

  it('flush waits for everything queued; close refuses new records', async () => {
    const { store, batches } = recordingStore({ delayMs: 5 })
    const writer = createBatchWriter(store, { maxDelayMs: 50 })
    const written = writer.write(op('q'))
    await writer.close()
    expect(batches).toEqual([['q']])
    await expect(written).resolves.toMatchObject({ id: 'q' })
    await expect(writer.write(op('late'))).rejects.toThrow('closed')
  })

  it('writes an all-or-nothing group alone, in its turn, while single records around it batch together', async () => {
    const { store, batches, allOrNothing } = recordingStore({ delayMs: 5 })
    const writer = createBatchWriter(store, { maxDelayMs: 5 })
    const before = ['a', 'b'].map((id) => writer.write(op(id)))
    const group = writer.writeGroup([op('g1'), op('g2')])
    const after = ['c', 'd'].map((id) => writer.write(op(id)))
    await expect(group).resolves.toMatchObject([{ id: 'g1' }, { id: 'g2' }])
    await Promise.all([...before, ...after])
    expect(batches).toEqual([
      ['a', 'b'],
      ['g1', 'g2'],
      ['c', 'd'],
    ])
    expect(allOrNothing).toEqual([false, true, false])
  })

  it('fails a group as a whole, without retrying its ops one by one or failing other records', async () => {
    const { store, batches } = recordingStore({ failIds: new Set(['bad']) })
    const errors: number[] = []
    const writer = createBatchWriter(store, {
      maxDelayMs: 5,
      onBatchError: (_e, n) => errors.push(n),
    })
    const single = writer.write(op('a'))
    const group = writer.writeGroup([op('g1'), op('bad'), op('g3')])
    await expect(group).rejects.toThrow('constraint violated')
    await expect(single).resolves.toMatchObject({ id: 'a' })
    expect(batches).toEqual([['a'], ['g1', 'bad', 'g3']])
    expect(errors).toEqual([])
  })

  it("counts a group's records toward parallelMinRows, so a large group starts beside a running batch", async () => {
    const { store, maxActive } = recordingStore({ delayMs: 20 })
    const writer = createBatchWriter(store, { maxDelayMs: 1, concurrency: 2, parallelMinRows: 3 })
    const first = writer.write(op('a'))
    await new Promise((r) => setTimeout(r, 5))
    await Promise.all([first, writer.writeGroup([op('g1'), op('g2'), op('g3')])])
    expect(maxActive()).toBe(2)
  })

  it('flush waits for groups too; close refuses new groups', async () => {
    const { store, batches } = recordingStore({ delayMs: 5 })
    const writer = createBatchWriter(store, { maxDelayMs: 50 })
    const written = writer.writeGroup([op('g1'), op('g2')])
    await writer.close()
    expect(batches).toEqual([['g1', 'g2']])
    await expect(written).resolves.toHaveLength(2)
    await expect(writer.writeGroup([op('late')])).rejects.toThrow('closed')
  })
})
