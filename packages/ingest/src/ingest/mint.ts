import { parseMobileTokenEnvelope } from '@tis/schema'
import { type EngineRequest, type EngineResponse, json } from '../http'
import { generateToken, sha256Hex, TOKEN_PREFIXES, uuidv7 } from '../ids'
import { bindingOf, mintResponse } from '../mobile'
import type { MobileTokenStore } from '../ports'
import { rateLimitHeaders } from '../rate-limit'
import type { Admit } from './admission'
import { parseBody } from './request-body'

/** What {@link createMobileTokenMint} runs with. */
export interface MobileTokenMintDeps {
  readonly admit: Admit
  readonly mobileTokens: Pick<MobileTokenStore, 'createMobileToken'>
  readonly now: () => Date
  /** Largest body once decompressed, for the 413's message. */
  readonly maxBodyBytes: number
}

/**
 * `POST /api/v1/mobile_ingest_tokens`: a server project API key mints a short-lived token bound
 * to a platform, service and environment (section 2.5); its platform must be the project's.
 */
export function createMobileTokenMint(
  deps: MobileTokenMintDeps,
): (request: EngineRequest) => Promise<EngineResponse> {
  return async (request) => {
    const at = deps.now()
    const admitted = await deps.admit('mobile_ingest_tokens', request, at)
    if ('status' in admitted) return admitted
    const headers = rateLimitHeaders(admitted.rate)
    const body = await parseBody(request, 'mobile_ingest_token', deps.maxBodyBytes)
    if ('status' in body) return { ...body, headers }
    const parsed = parseMobileTokenEnvelope(body.value)
    if (!parsed.ok) {
      return parsed.status === 400
        ? json(400, { error: parsed.error }, headers)
        : json(422, { errors: parsed.errors }, headers)
    }
    const { credential } = admitted
    if (parsed.value.platform !== credential.integrationKind) {
      const message = `platform does not match the project's integration kind (project: ${credential.integrationKind}, sent: ${parsed.value.platform})`
      return json(422, { errors: [message] }, headers)
    }
    const token = generateToken(TOKEN_PREFIXES.mobile, 32)
    const record = await deps.mobileTokens.createMobileToken({
      ...bindingOf(parsed.value),
      id: uuidv7(at.getTime()),
      projectId: credential.projectId,
      parentKeyId: credential.id,
      tokenDigest: sha256Hex(token),
      createdAt: at,
      expiresAt: new Date(at.getTime() + parsed.value.expires_in_seconds * 1000),
    })
    return json(201, mintResponse(token, record), headers)
  }
}
