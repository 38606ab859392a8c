import { walkExportJson } from './export-walk'
import {
  arrayAt,
  attributesAt,
  enumAt,
  hexIdAt,
  int64At,
  type JsonRecord,
  objectAt,
  pick,
  stringAt,
} from './json-common'
import type { OtlpSpan, OtlpSpanEvent, OtlpTraces } from './types'

const SPAN_KIND_NAMES = [
  'SPAN_KIND_UNSPECIFIED',
  'SPAN_KIND_INTERNAL',
  'SPAN_KIND_SERVER',
  'SPAN_KIND_CLIENT',
  'SPAN_KIND_PRODUCER',
  'SPAN_KIND_CONSUMER',
]
const STATUS_CODE_NAMES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR']

/** `ExportTraceServiceRequest` from a parsed OTLP/JSON body. */
export function decodeTracesJson(body: unknown): OtlpTraces {
  const levels = {
    resources: ['resourceSpans', 'resource_spans'],
    scopes: ['scopeSpans', 'scope_spans'],
    records: ['spans', 'spans'],
  } as const
  return {
    resourceSpans: walkExportJson(body, levels, spanAt).map(({ resource, scopes }) => ({
      resource,
      scopeSpans: scopes.map(({ scope, records }) => ({ scope, spans: records })),
    })),
  }
}

function spanAt(value: unknown, path: string): OtlpSpan {
  const o = objectAt(value, path)
  const field = (camel: string, snake: string) => pick(o, camel, snake)
  const statusObject = objectAt(o['status'], `${path}.status`)
  const statusMessage = stringAt(statusObject['message'], `${path}.status.message`)
  const code = enumAt(statusObject['code'], STATUS_CODE_NAMES, `${path}.status.code`)
  const span = {
    traceId: hexIdAt(field('traceId', 'trace_id'), 32, `${path}.traceId`) ?? '',
    spanId: hexIdAt(field('spanId', 'span_id'), 16, `${path}.spanId`) ?? '',
    name: stringAt(o['name'], `${path}.name`) ?? '',
    kind: enumAt(o['kind'], SPAN_KIND_NAMES, `${path}.kind`),
    startTimeUnixNano: nanosAt(o, 'startTimeUnixNano', 'start_time_unix_nano', path),
    endTimeUnixNano: nanosAt(o, 'endTimeUnixNano', 'end_time_unix_nano', path),
    attributes: attributesAt(o['attributes'], `${path}.attributes`),
    events: arrayAt(o['events'], `${path}.events`).map((e, i) =>
      eventAt(e, `${path}.events[${i}]`),
    ),
    status:
      statusMessage === undefined || statusMessage === ''
        ? { code }
        : { code, message: statusMessage },
  }
  const parent = hexIdAt(field('parentSpanId', 'parent_span_id'), 16, `${path}.parentSpanId`)
  return parent === undefined ? span : { ...span, parentSpanId: parent }
}

function eventAt(value: unknown, path: string): OtlpSpanEvent {
  const o = objectAt(value, path)
  return {
    name: stringAt(o['name'], `${path}.name`) ?? '',
    timeUnixNano: nanosAt(o, 'timeUnixNano', 'time_unix_nano', path),
    attributes: attributesAt(o['attributes'], `${path}.attributes`),
  }
}

/** A fixed64 timestamp field as a decimal string of unsigned nanoseconds. */
export function nanosAt(o: JsonRecord, camel: string, snake: string, path: string): string {
  return BigInt.asUintN(64, int64At(pick(o, camel, snake), `${path}.${camel}`)).toString()
}
