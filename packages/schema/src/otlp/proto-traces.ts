import { walkExportProtobuf } from './export-walk'
import { decodeKeyValue, enumOf, idOf } from './proto-common'
import type { OtlpAttributes, OtlpSpan, OtlpSpanEvent, OtlpTraces } from './types'
import { bytesOf, fixed64Of, forEachField, stringOf } from './wire'

/** `ExportTraceServiceRequest` (collector/trace/v1/trace_service.proto) from protobuf bytes. */
export function decodeTracesProtobuf(buf: Uint8Array): OtlpTraces {
  const levels = {
    request: 'ExportTraceServiceRequest',
    resource: 'ResourceSpans',
    scope: 'ScopeSpans',
  }
  return {
    resourceSpans: walkExportProtobuf(buf, levels, decodeSpan).map(({ resource, scopes }) => ({
      resource,
      scopeSpans: scopes.map(({ scope, records }) => ({ scope, spans: records })),
    })),
  }
}

function decodeSpan(buf: Uint8Array): OtlpSpan {
  let traceId = ''
  let spanId = ''
  let parentSpanId: string | undefined
  let name = ''
  let kind = 0
  let start = 0n
  let end = 0n
  const attributes: OtlpAttributes = {}
  const events: OtlpSpanEvent[] = []
  let status: OtlpSpan['status'] = { code: 0 }
  forEachField(buf, 'Span', (field, value) => {
    const where = `field ${field} of Span`
    switch (field) {
      case 1:
        traceId = idOf(value, 16, where) ?? ''
        break
      case 2:
        spanId = idOf(value, 8, where) ?? ''
        break
      case 4:
        parentSpanId = idOf(value, 8, where)
        break
      case 5:
        name = stringOf(value, where)
        break
      case 6:
        kind = enumOf(value, where)
        break
      case 7:
        start = fixed64Of(value, where)
        break
      case 8:
        end = fixed64Of(value, where)
        break
      case 9:
        decodeKeyValue(bytesOf(value, where), attributes)
        break
      case 11:
        events.push(decodeEvent(bytesOf(value, where)))
        break
      case 15:
        status = decodeStatus(bytesOf(value, where))
        break
    }
  })
  const span = {
    traceId,
    spanId,
    name,
    kind,
    startTimeUnixNano: start.toString(),
    endTimeUnixNano: end.toString(),
    attributes,
    events,
    status,
  }
  return parentSpanId === undefined ? span : { ...span, parentSpanId }
}

function decodeEvent(buf: Uint8Array): OtlpSpanEvent {
  let time = 0n
  let name = ''
  const attributes: OtlpAttributes = {}
  forEachField(buf, 'Span.Event', (field, value) => {
    const where = `field ${field} of Span.Event`
    if (field === 1) time = fixed64Of(value, where)
    else if (field === 2) name = stringOf(value, where)
    else if (field === 3) decodeKeyValue(bytesOf(value, where), attributes)
  })
  return { name, timeUnixNano: time.toString(), attributes }
}

function decodeStatus(buf: Uint8Array): OtlpSpan['status'] {
  let code = 0
  let message = ''
  forEachField(buf, 'Status', (field, value) => {
    const where = `field ${field} of Status`
    if (field === 2) message = stringOf(value, where)
    else if (field === 3) code = enumOf(value, where)
  })
  return message === '' ? { code } : { code, message }
}
