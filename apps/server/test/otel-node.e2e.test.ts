import { describeOnPglite } from '@tis/test-utils/server'
import { describeOtelNode } from './support/otel-node-suite'

// OpenTelemetry's Node SDK (@opentelemetry/sdk-node with its OTLP/HTTP exporters) pointed at
// tis by nothing but OTEL_EXPORTER_OTLP_ENDPOINT and a key header, on PGlite.
describeOnPglite('@opentelemetry/sdk-node', describeOtelNode)
