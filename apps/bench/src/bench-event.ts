// The typical error event every ingest bench sends: a TypeError with a request context.

/** One `POST /api/v1/ingest_events` body: an error event with trace, request and tags. */
export const BENCH_EVENT_BODY = JSON.stringify({
  event: {
    event_type: 'error',
    message: "TypeError: Cannot read properties of undefined (reading 'id')\n    at handler",
    level: 'error',
    environment: 'production',
    release: 'api@1.42.0',
    trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
    transaction_name: 'GET /orders/:id',
    context: {
      exception: { exception_class: 'TypeError' },
      request: { method: 'GET', url: 'https://api.acme.test/orders/17', route: '/orders/:id' },
      tags: { region: 'eu-west-1' },
    },
  },
})
