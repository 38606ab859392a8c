import { sentryBenchEvent } from './sentry-bench-event'

// The scrubbing comparison's Sentry event: @sentry/node's rich event for the bench's error
// (sentry-bench-event.ts) with what a request handler's event carries besides, secrets included,
// as an SDK sends them without filtering of its own (Python's with `send_default_pii`, or any SDK
// whose `beforeSend` adds them): the request's cookies, credential, query and form data, a trail
// of breadcrumbs and a context of the handler's own.

/** The breadcrumbs: the requests and log lines that led to the error, one carrying a credential. */
const BREADCRUMBS = Array.from({ length: 12 }, (_, i) =>
  i % 3 === 0
    ? {
        timestamp: 1_796_000_000 + i,
        type: 'http',
        category: 'http',
        data: {
          method: 'GET',
          url: `https://inventory.acme.test/items?page=${i}&access_token=at_${i}f3a9c1e7b2d4`,
          status_code: 200,
        },
      }
    : i % 3 === 1
      ? {
          timestamp: 1_796_000_000 + i,
          category: 'console',
          level: 'info',
          message: `loaded ${i * 7} items for order 17`,
          data: { arguments: [`loaded ${i * 7} items`, { order: 17 }], logger: 'console' },
        }
      : {
          timestamp: 1_796_000_000 + i,
          category: 'payment',
          message: 'calling the payment provider',
          data: { provider: 'acme-pay', api_key: 'sk_live_51Hx9a2b3c4d5e6f7', attempt: i },
        },
)

/**
 * @sentry/node's event for the bench's TypeError (frames, contexts, sdk) with a request's data:
 * `Cookie` and `Authorization` headers and the cookies parsed, a `token` in the query, a form
 * with a password, twelve breadcrumbs, a `checkout` context with a card number; `now` in ms,
 * `eventId` its id.
 */
export function sentryRequestEvent(now: number, eventId: string) {
  const event = sentryBenchEvent(now, eventId)
  return {
    ...event,
    request: {
      method: 'POST',
      url: 'https://api.acme.test/orders/17/checkout?token=tok_8c1f4e2a9b7d&step=pay',
      query_string: 'token=tok_8c1f4e2a9b7d&step=pay',
      headers: {
        ...event.request.headers,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: 'sessionid=s_4b7e9d2c1a8f; csrftoken=c_9a8b7c6d; theme=dark',
        authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTQyIn0.c2lnbmF0dXJl',
        'x-request-id': 'req_7f9c4e2a',
      },
      cookies: { sessionid: 's_4b7e9d2c1a8f', csrftoken: 'c_9a8b7c6d', theme: 'dark' },
      data: { email: 'ada@example.com', password: 'correct horse battery', remember: 'on' },
    },
    breadcrumbs: BREADCRUMBS,
    user: { id: 'u-42', email: 'ada@example.com', ip_address: '203.0.113.7' },
    contexts: {
      ...event.contexts,
      checkout: { plan: 'gold', card: '4111 1111 1111 1111', amount: 4_200, currency: 'EUR' },
    },
    extra: { cart_id: 'cart_31', db_url: 'postgres://shop:s3cr3t-pw@db.internal:5432/shop' },
  }
}
