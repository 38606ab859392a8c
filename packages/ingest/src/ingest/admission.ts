import { ERROR_BODIES } from '@tis/schema'
import { type EngineRequest, type EngineResponse, json } from '../http'
import { MOBILE_ENDPOINTS } from '../mobile'
import type { CredentialRecord } from '../ports'
import {
  type RateLimiter,
  type RateLimitSettings,
  type RateLimitState,
  tooManyRequests,
} from '../rate-limit'
import type { CredentialCache } from './credentials'

/** The ingestion endpoints; each has its own counter per credential (section 8). */
export type IngestEndpoint = 'ingest_events' | 'check_ins' | 'deployments' | 'mobile_ingest_tokens'

/** An admitted request: its credential, and its window after the hit. */
export interface Admitted {
  readonly credential: CredentialRecord
  readonly rate: RateLimitState
}

/**
 * Authentication, the endpoint rule and the request cap of one request, counting `count` units
 * (a batch counts its envelopes): the admitted credential, or the refusal (401, 403, 413, 429).
 */
export type Admit = (
  endpoint: IngestEndpoint,
  request: EngineRequest,
  at: Date,
  count?: number,
) => Promise<Admitted | EngineResponse>

/** What {@link createAdmission} checks with. */
export interface AdmissionDeps {
  readonly credentials: CredentialCache
  readonly limiter: RateLimiter
  readonly limits: RateLimitSettings
}

/** The admission of every ingestion request. */
export function createAdmission({ credentials, limiter, limits }: AdmissionDeps): Admit {
  return async (endpoint, request, at, count = 1) => {
    const check = await credentials.check(request.headers, at)
    if (!check.ok) {
      // A refused credential that was found names its project, whose override then applies.
      const cap = check.credential?.rateLimit?.authFailureRequests ?? limits.authFailures
      const failures = await limiter.hit(`auth-failure:${request.ip ?? 'unknown'}`, cap, 60, at)
      if (!failures.allowed) return tooManyRequests(failures)
      return json(401, ERROR_BODIES.unauthorized)
    }
    // Mobile tokens (section 5.5) and Sentry DSN keys (public: browser applications carry
    // them) may only ingest events and check-ins.
    if (check.credential.kind !== 'api_key' && !MOBILE_ENDPOINTS.has(endpoint)) {
      return json(403, ERROR_BODIES.forbidden)
    }
    const override = check.credential.rateLimit
    const limit = override?.requests ?? limits.requests
    const period = override?.periodSeconds ?? limits.periodSeconds
    const key = `${check.credential.id}:${endpoint}`
    // A batch larger than a whole window could never fit: 413, which Logister's clients answer
    // by splitting it.
    if (count > limit) {
      return json(413, {
        error: `batch has ${count} envelopes; this credential may send at most ${limit} per ${period}-second window`,
      })
    }
    const rate = await limiter.hit(key, limit, period, at, count)
    if (rate.allowed) return { credential: check.credential, rate }
    // A batch (count > 1) is all or nothing: refused, it gives its units back at once.
    return tooManyRequests(count > 1 ? await limiter.hit(key, limit, period, at, -count) : rate)
  }
}
