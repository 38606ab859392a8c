import { describe, expect, it } from 'vitest'
import type { WriteOp, WriteResult } from '../ports'
import { knownRecord } from './known-record'

const PROJECT = '0190a6d2-7c1e-7000-8000-00000000000a'
const OTHER = '0190a6d2-7c1e-7000-8000-00000000000b'
const op = { type: 'check_in', id: 'r1', projectId: PROJECT } as unknown as WriteOp
const existing = (projectId: string): WriteResult => ({
  id: 'r0',
  legacyId: 7,
  existing: { projectId, id: 'r0', legacyId: 7 },
})

describe('knownRecord: the engine decides duplicate or conflict from the stored facts', () => {
  it.each([
    ['nothing existing: stored', { id: 'r1', legacyId: 1 }, 'stored'],
    ['existing in the same project: duplicate (200)', existing(PROJECT), 'duplicate'],
    ['the same project in other case: duplicate', existing(PROJECT.toUpperCase()), 'duplicate'],
    ['existing in another project: conflict (422)', existing(OTHER), 'conflict'],
  ] as const)('%s', (_rule, result, expected) => {
    expect(knownRecord(op, result)).toBe(expected)
  })
})
