import { arrayAt, objectAt, pick, resourceAt, scopeAt } from './json-common'
import { decodeResource, decodeScope } from './proto-common'
import type { OtlpAttributes, OtlpScope } from './types'
import { bytesOf, forEachField } from './wire'

// The three outer levels every OTLP export request shares, whatever its signal: the request
// holds resources (field 1), a resource its attributes (1) and scopes (2), a scope its
// instrumentation scope (1) and records (2). The signal's decoder reads only its records.

/** One resource of an export request: its attributes and its scopes with their records. */
export interface ResourceGroup<R> {
  readonly resource: OtlpAttributes
  readonly scopes: readonly { readonly scope: OtlpScope; readonly records: R[] }[]
}

/** The message names of a signal's outer levels, as error messages show them. */
export interface ProtobufLevels {
  /** e.g. `ExportTraceServiceRequest` */
  readonly request: string
  /** e.g. `ResourceSpans` */
  readonly resource: string
  /** e.g. `ScopeSpans` */
  readonly scope: string
}

/** An export request from protobuf bytes, its records read by `decodeRecord`. */
export function walkExportProtobuf<R>(
  buf: Uint8Array,
  levels: ProtobufLevels,
  decodeRecord: (buf: Uint8Array) => R,
): ResourceGroup<R>[] {
  const out: ResourceGroup<R>[] = []
  forEachField(buf, levels.request, (field, value) => {
    if (field !== 1) return
    let resource: OtlpAttributes = {}
    const scopes: { scope: OtlpScope; records: R[] }[] = []
    forEachField(bytesOf(value, `field 1 of ${levels.request}`), levels.resource, (f, v) => {
      const where = `field ${f} of ${levels.resource}`
      if (f === 1) resource = decodeResource(bytesOf(v, where))
      else if (f === 2) scopes.push(scopeOf(bytesOf(v, where), levels.scope, decodeRecord))
    })
    out.push({ resource, scopes })
  })
  return out
}

function scopeOf<R>(
  buf: Uint8Array,
  name: string,
  decodeRecord: (buf: Uint8Array) => R,
): { scope: OtlpScope; records: R[] } {
  let scope: OtlpScope = { name: '' }
  const records: R[] = []
  forEachField(buf, name, (field, value) => {
    const where = `field ${field} of ${name}`
    if (field === 1) scope = decodeScope(bytesOf(value, where))
    else if (field === 2) records.push(decodeRecord(bytesOf(value, where)))
  })
  return { scope, records }
}

/** The OTLP/JSON keys of a signal's outer levels, each lowerCamelCase then snake_case. */
export interface JsonLevels {
  /** e.g. `['resourceSpans', 'resource_spans']` */
  readonly resources: readonly [string, string]
  /** e.g. `['scopeSpans', 'scope_spans']` */
  readonly scopes: readonly [string, string]
  /** e.g. `['spans', 'spans']` */
  readonly records: readonly [string, string]
}

/** An export request from a parsed OTLP/JSON body, its records read by `recordAt`. */
export function walkExportJson<R>(
  body: unknown,
  levels: JsonLevels,
  recordAt: (value: unknown, path: string) => R,
): ResourceGroup<R>[] {
  const [resourcesKey, resourcesSnake] = levels.resources
  const [scopesKey, scopesSnake] = levels.scopes
  const [recordsKey, recordsSnake] = levels.records
  const root = objectAt(body, 'the body')
  const list = arrayAt(pick(root, resourcesKey, resourcesSnake), resourcesKey)
  return list.map((value, i) => {
    const path = `${resourcesKey}[${i}]`
    const o = objectAt(value, path)
    const scopes = arrayAt(pick(o, scopesKey, scopesSnake), `${path}.${scopesKey}`)
    return {
      resource: resourceAt(o['resource'], `${path}.resource`),
      scopes: scopes.map((value, j) => {
        const at = `${path}.${scopesKey}[${j}]`
        const s = objectAt(value, at)
        const records = arrayAt(pick(s, recordsKey, recordsSnake), `${at}.${recordsKey}`)
        return {
          scope: scopeAt(s['scope'], `${at}.scope`),
          records: records.map((r, k) => recordAt(r, `${at}.${recordsKey}[${k}]`)),
        }
      }),
    }
  })
}
