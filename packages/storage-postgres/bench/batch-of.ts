import { randomUUID } from 'node:crypto'
import type { ManagementStore, WriteOp } from '@tis/ingest'

/**
 * `size` events as the engine hands them to the store: half errors over 10 issues, half logs,
 * each with the context an SDK sends (tags, request, trace and request ids).
 */
export function batchOf(projectId: string, size: number): WriteOp[] {
  return Array.from({ length: size }, (_, i) => {
    const at = new Date()
    const error = i % 2 === 0
    const hash = `${(i % 10).toString(16)}`.repeat(64)
    return {
      type: 'event',
      id: randomUUID(),
      projectId,
      receivedAt: at,
      occurredAt: at,
      event: {
        event_type: error ? 'error' : 'log',
        message: error ? `TypeError: x is undefined (${i % 10})` : `request ${i} served`,
        level: error ? 'error' : 'info',
        occurred_at: at.toISOString(),
        environment: 'production',
        release: '1.4.2',
        trace_id: randomUUID(),
        request_id: randomUUID(),
        context: {
          environment: 'production',
          release: '1.4.2',
          tags: { region: 'eu-west-1', host: `web-${i % 4}` },
          request: { method: 'GET', path: `/items/${i}`, headers: { 'user-agent': 'bench' } },
        },
      },
      issue: error ? { hash, key: `message:${hash}`, title: 'TypeError', level: 'error' } : null,
      monitor: null,
      deployment: null,
    } satisfies WriteOp
  })
}

/** A user and a project of theirs to write the bench's batches to; resolves the project id. */
export async function seedProject(
  store: Pick<ManagementStore, 'createUser' | 'createProject'>,
): Promise<string> {
  const userId = randomUUID()
  const projectId = randomUUID()
  const now = new Date()
  await store.createUser({
    id: userId,
    email: `${userId}@bench`,
    tokenDigest: userId,
    createdAt: now,
  })
  await store.createProject({
    id: projectId,
    name: 'bench',
    integrationKind: 'node',
    ownerId: userId,
    createdAt: now,
  })
  return projectId
}
