import { walkExportProtobuf } from './export-walk'
import { decodeAnyValue, decodeKeyValue, enumOf, idOf } from './proto-common'
import type { OtlpAttributes, OtlpLogRecord, OtlpLogs, OtlpValue } from './types'
import { bytesOf, fixed64Of, forEachField, stringOf } from './wire'

/** `ExportLogsServiceRequest` (collector/logs/v1/logs_service.proto) from protobuf bytes. */
export function decodeLogsProtobuf(buf: Uint8Array): OtlpLogs {
  const levels = {
    request: 'ExportLogsServiceRequest',
    resource: 'ResourceLogs',
    scope: 'ScopeLogs',
  }
  return {
    resourceLogs: walkExportProtobuf(buf, levels, decodeLogRecord).map(({ resource, scopes }) => ({
      resource,
      scopeLogs: scopes.map(({ scope, records }) => ({ scope, logRecords: records })),
    })),
  }
}

function decodeLogRecord(buf: Uint8Array): OtlpLogRecord {
  let time = 0n
  let observed = 0n
  let severityNumber = 0
  const optional: {
    severityText?: string
    body?: OtlpValue
    traceId?: string
    spanId?: string
    eventName?: string
  } = {}
  const attributes: OtlpAttributes = {}
  forEachField(buf, 'LogRecord', (field, value) => {
    const where = `field ${field} of LogRecord`
    switch (field) {
      case 1:
        time = fixed64Of(value, where)
        break
      case 11:
        observed = fixed64Of(value, where)
        break
      case 2:
        severityNumber = enumOf(value, where)
        break
      case 3:
        optional.severityText = stringOf(value, where)
        break
      case 5:
        optional.body = decodeAnyValue(bytesOf(value, where))
        break
      case 6:
        decodeKeyValue(bytesOf(value, where), attributes)
        break
      case 9: {
        const id = idOf(value, 16, where)
        if (id !== undefined) optional.traceId = id
        break
      }
      case 10: {
        const id = idOf(value, 8, where)
        if (id !== undefined) optional.spanId = id
        break
      }
      case 12:
        optional.eventName = stringOf(value, where)
        break
    }
  })
  if (optional.severityText === '') delete optional.severityText
  if (optional.eventName === '') delete optional.eventName
  return {
    timeUnixNano: time.toString(),
    observedTimeUnixNano: observed.toString(),
    severityNumber,
    attributes,
    ...optional,
  }
}
