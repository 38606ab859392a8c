import { ERROR_BODIES, type NormalizedCheckIn, type NormalizedDeployment } from '@tis/schema'
import { type EngineResponse, json } from '../http'
import { uuidv7 } from '../ids'
import { allowsEventType, bindCheckIn } from '../mobile'
import type { CredentialRecord, WriteOp } from '../ports'
import { deploymentFromApi, monitorFromCheckIn } from './records'
import { scrubCheckIn, scrubDeployment } from './scrubbing'

/**
 * The write of a check-in (`POST /api/v1/check_ins`) for a credential, its mobile binding
 * applied, or its refusal (403, 422). The client's `event_id` makes it idempotent.
 */
export function checkInOp(
  sent: NormalizedCheckIn,
  credential: CredentialRecord,
  at: Date,
): WriteOp | EngineResponse {
  let checkIn = sent
  if (credential.binding) {
    if (!allowsEventType(credential.binding, 'check_in')) {
      return json(403, ERROR_BODIES.forbidden)
    }
    const bound = bindCheckIn(credential.binding, checkIn)
    if ('errors' in bound) return json(422, { errors: bound.errors })
    checkIn = bound.checkIn
  }
  checkIn = scrubCheckIn(checkIn, credential)
  return {
    type: 'check_in',
    ...(checkIn.event_id
      ? { id: checkIn.event_id, dedupe: true }
      : { id: uuidv7(at.getTime()), dedupe: false }),
    projectId: credential.projectId,
    receivedAt: at,
    checkIn,
    monitor: monitorFromCheckIn(checkIn),
  }
}

/** The write of a deployment (`POST /api/v1/deployments`): an upsert by its natural key. */
export function deploymentOp(
  sent: NormalizedDeployment,
  credential: CredentialRecord,
  at: Date,
): WriteOp {
  const deployment = scrubDeployment(sent, credential)
  return {
    type: 'deployment',
    id: uuidv7(at.getTime()),
    projectId: credential.projectId,
    receivedAt: at,
    deployment,
    upsert: deploymentFromApi(deployment, at),
  }
}
