import type { SessionUpdate } from '@tis/schema'
import { describe, expect, it } from 'vitest'
import {
  mergeSessionState,
  outcomeDelta,
  outcomeOf,
  SESSION_OUTCOME,
  type SessionState,
  stateOf,
} from './status'

const update = (over: Partial<SessionUpdate>): SessionUpdate => ({
  kind: 'update',
  sid: 's',
  did: null,
  seq: null,
  init: false,
  started: '2026-12-01T10:00:00.000Z',
  timestamp: null,
  duration: null,
  status: 'ok',
  errors: 0,
  release: 'r',
  environment: 'production',
  ...over,
})

/** The state after the updates, folded in order. */
const fold = (...updates: Partial<SessionUpdate>[]) =>
  updates.reduce<SessionState | undefined>(
    (state, u) => mergeSessionState(state, stateOf(update(u))),
    undefined,
  )!

describe('outcomeOf', () => {
  it.each([
    [{ status: 'ok' }, SESSION_OUTCOME.healthy],
    [{ status: 'exited' }, SESSION_OUTCOME.healthy],
    [{ status: 'ok', errors: 2 }, SESSION_OUTCOME.errored],
    [{ status: 'exited', errors: 1 }, SESSION_OUTCOME.errored],
    [{ status: 'errored' }, SESSION_OUTCOME.errored],
    [{ status: 'unhandled', errors: 1 }, SESSION_OUTCOME.errored],
    [{ status: 'abnormal', errors: 3 }, SESSION_OUTCOME.abnormal],
    [{ status: 'crashed', errors: 1 }, SESSION_OUTCOME.crashed],
  ] as const)('%o is %i', (u, outcome) => {
    expect(outcomeOf(update(u))).toBe(outcome)
  })
})

describe('the status machine', () => {
  it('counts a session on its init only', () => {
    expect(fold({ status: 'exited' }).counted).toBe(false)
    expect(fold({ init: true }, { status: 'exited' }).counted).toBe(true)
  })

  it('keeps a terminal status final: later updates change nothing but the count', () => {
    const s = fold({ init: true }, { status: 'crashed', errors: 1 }, { status: 'exited' })
    expect(s).toMatchObject({ outcome: SESSION_OUTCOME.crashed, terminal: true, errors: 1 })
    expect(fold({ init: true }, { status: 'exited' }, { status: 'crashed' }).outcome).toBe(
      SESSION_OUTCOME.healthy,
    )
    expect(fold({ init: true }, { status: 'abnormal' }, { status: 'crashed' }).outcome).toBe(
      SESSION_OUTCOME.abnormal,
    )
  })

  it('is errored once it has errors, unless it crashed', () => {
    expect(fold({ init: true }, { errors: 1 }, { status: 'exited', errors: 1 }).outcome).toBe(
      SESSION_OUTCOME.errored,
    )
    expect(fold({ init: true, errors: 1 }, { status: 'crashed', errors: 2 }).outcome).toBe(
      SESSION_OUTCOME.crashed,
    )
  })

  it('gives the same state whatever order the updates arrive in', () => {
    const updates: Partial<SessionUpdate>[] = [
      { init: true, seq: 1 },
      { errors: 1, seq: 2 },
      { status: 'exited', errors: 1, seq: 3, did: 'u' },
    ]
    const orders = [
      [0, 1, 2],
      [2, 1, 0],
      [1, 2, 0],
      [2, 0, 1],
    ]
    const states = orders.map((o) => fold(...o.map((i) => updates[i]!)))
    for (const s of states) expect(s).toEqual(states[0])
    expect(states[0]).toMatchObject({ counted: true, outcome: SESSION_OUTCOME.errored, seq: 3 })
  })

  it('counts a repeated update once', () => {
    const once = fold({ init: true }, { status: 'crashed' })
    const twice = fold({ init: true }, { init: true }, { status: 'crashed' }, { status: 'crashed' })
    expect(twice).toEqual(once)
  })

  it('folds a batch and merges the fold as it merges single updates', () => {
    const stored = fold({ init: true, errors: 1 })
    const batch = fold({ status: 'exited' }, { status: 'crashed' })
    const seq = fold({ init: true, errors: 1 }, { status: 'exited' }, { status: 'crashed' })
    expect(mergeSessionState(stored, batch)).toEqual(seq)
  })
})

describe('outcomeDelta', () => {
  it('moves a counted session from its old outcome to its new one', () => {
    const before = fold({ init: true })
    const after = mergeSessionState(before, stateOf(update({ status: 'crashed' })))
    expect(outcomeDelta(before, after)).toEqual({
      healthy: -1,
      errored: 0,
      abnormal: 0,
      crashed: 1,
    })
  })

  it('adds nothing for an uncounted session, and all at its init', () => {
    const before = fold({ status: 'crashed' })
    expect(outcomeDelta(undefined, before)).toEqual({
      healthy: 0,
      errored: 0,
      abnormal: 0,
      crashed: 0,
    })
    const after = mergeSessionState(before, stateOf(update({ init: true })))
    expect(outcomeDelta(before, after).crashed).toBe(1)
  })
})
