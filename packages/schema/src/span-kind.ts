import { SPAN_KINDS, type SpanKind } from './enums'

const BY_LOWER_CASE = new Map<string, SpanKind>(SPAN_KINDS.map((kind) => [kind, kind]))

/**
 * The kind a span is stored with: the sent kind when it names one of {@link SPAN_KINDS}, in any
 * case (`DB` → `db`), else `internal`, as Logister stores an unknown kind. This overrides the
 * enum of section 2.1 on purpose: the OpenTelemetry kinds (`client`, `producer`,
 * `consumer`) and clients' own kinds (`job`, `graphql`) must not lose the span. The sent kind
 * stays readable in the span's `context.kind`.
 */
export function storedSpanKind(sent: string): SpanKind {
  return BY_LOWER_CASE.get(sent.toLowerCase()) ?? 'internal'
}
