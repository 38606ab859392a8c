import type { EventRecord, ReadStore } from '../ports'
import { isValidDate } from './stored-values'

/**
 * The deployment of an event: the one of its release and environment (and repository when the
 * event names one), else the newest deployed at or before the event in that environment (and
 * repository); `null` for an event without an environment.
 */
export async function eventDeployment(
  store: Pick<ReadStore, 'listDeployments'>,
  projectId: string,
  e: EventRecord,
) {
  if (e.environment === null) return null
  const repository = e.payload['repository']
  const base = {
    projectId,
    environment: e.environment,
    ...(typeof repository === 'string' ? { repository } : {}),
    limit: 1,
  }
  if (e.release !== null) {
    const [exact] = await store.listDeployments({ ...base, release: e.release })
    if (exact) return exact
  }
  if (!isValidDate(e.occurredAt)) return null
  const [before] = await store.listDeployments({ ...base, deployedBefore: e.occurredAt })
  return before ?? null
}
