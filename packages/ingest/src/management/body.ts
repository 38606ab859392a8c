import {
  type JsonObject,
  MANAGEMENT_FIELDS,
  type ManagementEnvelopeKey,
  type ManagementRecords,
  missingEnvelopeMessage,
  parseManagementEnvelope,
  toSnakeCase,
  unwrapEnvelope,
} from '@tis/schema'
import { type EngineRequest, type EngineResponse, json } from '../http'

const isPlainObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** How one management or read-API write reads its body (see {@link readManagementBody}). */
export interface ManagementBodySpec {
  /** The envelope key: the body is `{"<key>": {…}}` (or `<KEY>`). */
  readonly key: string
  /** The fields the envelope may hold, in canonical snake_case. */
  readonly fields: readonly string[]
  /**
   * A request without any body takes the write's defaults (`POST …/api_keys`), and so does an
   * empty envelope.
   * @default false
   */
  readonly optional?: boolean
  /**
   * `{"<key>": null}` is a value of its own (`PUT …/rate_limits`: clear every override); it
   * reads as `null`.
   * @default false
   */
  readonly nullClears?: boolean
  /**
   * The fields may also be sent without the envelope (`PUT …/source_settings`).
   * @default false
   */
  readonly bare?: boolean
}

/** The envelope's content (`null` for a {@link ManagementBodySpec.nullClears} envelope), or the answer. */
export type ManagementBody =
  | { readonly ok: true; readonly value: JsonObject | null }
  | { readonly ok: false; readonly response: EngineResponse }

const refuse = (key: string, why?: string) => ({
  ok: false as const,
  response: json(400, { error: `${missingEnvelopeMessage(key)}${why ? ` (${why})` : ''}` }),
})

/**
 * The one place that decides whether a management write's body is usable, so every
 * route answers the same, with section 7's bodies:
 *
 * - malformed JSON, no body (unless `optional`), a body that is not a JSON object (`null`, an
 *   array, a string, a number), or one without its envelope, or an envelope that is `null` (unless
 *   `nullClears`), not an object or `{}` (unless `optional`): **400** `param is missing or the
 *   value is empty: <key> (…)`, as on the ingestion endpoints;
 * - another root key beside the envelope, or nesting too deep: **422**;
 * - an envelope that names none of its fields: **422** `<key> must include at least one of …`
 *   (with the route's own messages about the unknown ones).
 *
 * The route then validates the fields themselves.
 */
export function readManagementBody(
  request: EngineRequest,
  spec: ManagementBodySpec,
): ManagementBody {
  const { key } = spec
  let body = request.body
  if (request.text !== undefined) {
    if (request.text.trim() === '') body = undefined
    else {
      try {
        body = JSON.parse(request.text)
      } catch {
        return refuse(key, 'the request body is not valid JSON')
      }
    }
  }
  if (body === undefined) {
    return spec.optional
      ? { ok: true, value: {} }
      : refuse(key, `the request body is empty; send {"${key}": {…}}`)
  }
  if (!isPlainObject(body)) {
    return refuse(key, `the request body must be a JSON object with a "${key}" object`)
  }
  const upper = key.toUpperCase()
  const wrapped = Object.hasOwn(body, key) || Object.hasOwn(body, upper)
  if (!wrapped && !spec.bare) return refuse(key, `the request body has no "${key}" object`)
  // `??` would read a null envelope as a missing one.
  const only =
    wrapped && Object.keys(body).length === 1 ? body[key in body ? key : upper] : undefined
  if (spec.nullClears && only === null) return { ok: true, value: null }
  if (spec.optional && isPlainObject(only) && Object.keys(only).length === 0) {
    return { ok: true, value: {} }
  }
  const envelope = wrapped ? unwrapEnvelope(body, key) : { ok: true as const, value: body }
  if (!envelope.ok) {
    return envelope.status === 400
      ? refuse(key, `"${key}" must be an object with at least one of ${spec.fields.join(', ')}`)
      : { ok: false, response: json(422, { errors: envelope.errors }) }
  }
  const known = new Set(spec.fields)
  const keys = Object.keys(envelope.value)
  if (keys.length === 0) return refuse(key, 'the request body is an empty object')
  if (!keys.some((k) => known.has(toSnakeCase(k)))) {
    return {
      ok: false,
      response: json(422, {
        errors: [
          ...keys.map((k) => `${k} is not a permitted property`),
          `${key} must include at least one of ${spec.fields.join(', ')}`,
        ],
      }),
    }
  }
  return { ok: true, value: envelope.value }
}

/**
 * An envelope's fields under their snake_case names, and a message for each field that is not
 * one of `fields` (`<key>.<field> is not a permitted property`): for the routes that validate
 * their fields by hand.
 */
export function knownFields(
  value: JsonObject | null,
  key: string,
  fields: readonly string[],
): { fields: Readonly<Record<string, unknown>>; errors: string[] } {
  const out: Record<string, unknown> = {}
  const errors: string[] = []
  for (const [name, v] of Object.entries(value ?? {})) {
    const snake = toSnakeCase(name)
    if (fields.includes(snake)) out[snake] = v
    else errors.push(`${key}.${name} is not a permitted property`)
  }
  return { fields: out, errors }
}

/** The outcome of {@link readBody}: the parsed fields (`null`: a clearing envelope), or the answer. */
type BodyOf<K extends ManagementEnvelopeKey> =
  | { ok: true; value: ManagementRecords[K] | null }
  | { ok: false; response: EngineResponse }

/**
 * Reads a management body: {@link readManagementBody} decides whether the body is usable at all
 * (the same rule on every route), then the envelope's fields are validated by `@tis/schema`.
 */
export function readBody<K extends ManagementEnvelopeKey>(
  request: EngineRequest,
  key: K,
  spec: Omit<ManagementBodySpec, 'key' | 'fields'> = {},
): BodyOf<K> {
  const body = readManagementBody(request, { key, fields: MANAGEMENT_FIELDS[key], ...spec })
  if (!body.ok) return body
  if (body.value === null) return { ok: true, value: null }
  if (Object.keys(body.value).length === 0) return { ok: true, value: {} as ManagementRecords[K] }
  const parsed = parseManagementEnvelope(key, { [key]: body.value })
  if (parsed.ok) return parsed
  return {
    ok: false,
    response:
      parsed.status === 400
        ? json(400, { error: parsed.error })
        : json(422, { errors: parsed.errors }),
  }
}
