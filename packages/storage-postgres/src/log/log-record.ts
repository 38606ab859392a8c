import type { WriteOp } from '@tis/ingest'

/** The ops that go through the ingest log; deployments posted to the API are written at once. */
export type LoggedOp = Extract<WriteOp, { type: 'event' | 'span' | 'check_in' | 'session' }>

/** Whether an op is acknowledged on the log (else it is written straight to its table). */
export const isLogged = (op: WriteOp): op is LoggedOp => op.type !== 'deployment'

/**
 * The `record` column: the op as the engine decided it, dates as ISO strings. Version 1. Before
 * it is serialised (`toJsonParam`) it holds the op itself, whose dates JSON writes as ISO strings.
 */
interface StoredOp {
  readonly v: 1
  readonly op: object
}

/**
 * The jsonb `record` of a logged op. What the engine decided at acceptance (grouping, the
 * monitor and deployment updates, a mobile binding) is kept as decided, so the projection never
 * depends on the engine version that replays it. No copy: the statement's one JSON
 * serialisation writes it (a copy through JSON cost a fifth of the append's time in Node).
 */
export function encodeOp(op: LoggedOp): StoredOp {
  return { v: 1, op }
}

const asDate = (value: unknown) => new Date(value as string)

/** The op of a `record` read back from the log: {@link encodeOp} reversed. */
export function decodeOp(record: unknown): LoggedOp {
  const stored = record as StoredOp
  if (stored?.v !== 1) throw new Error(`unknown ingest log record version ${String(stored?.v)}`)
  const op = stored.op as Record<string, unknown>
  const monitor = op['monitor'] as Record<string, unknown> | null | undefined
  const deployment = op['deployment'] as Record<string, unknown> | null | undefined
  return {
    ...op,
    receivedAt: asDate(op['receivedAt']),
    ...(op['occurredAt'] === undefined ? {} : { occurredAt: asDate(op['occurredAt']) }),
    ...(monitor ? { monitor: { ...monitor, occurredAt: asDate(monitor['occurredAt']) } } : {}),
    ...(deployment
      ? { deployment: { ...deployment, deployedAt: asDate(deployment['deployedAt']) } }
      : {}),
  } as unknown as LoggedOp
}
