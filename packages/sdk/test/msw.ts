import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'

/** One request the fake server saw. */
export interface Seen {
  readonly path: string
  readonly headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary payload fields
  readonly body: any
}

/** What the fake server answers: a status, or a full response. */
export type Answer = number | Response | (() => Response | Promise<Response>)

let counter = 0
/** A base URL no other test uses. */
export const uniqueBase = () => `https://tis-${++counter}.test`

/** The msw server with the three standard hooks; unhandled requests fail the test. */
export function useMsw() {
  const server = setupServer()
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => server.resetHandlers())
  afterAll(() => server.close())

  /**
   * Serves `POST {base}/api/v1/*`, recording each request; `answers` are used in order (the last
   * one repeats), 201 by default.
   */
  function serve(base: string, answers: Answer[] = [201]) {
    const seen: Seen[] = []
    const next = () => answers[Math.min(seen.length - 1, answers.length - 1)] ?? 201
    server.use(
      // The batch endpoint, all or nothing as tis answers it: each line is recorded as if sent
      // alone and gets the next answer (201 stored, 200 duplicate, any other 4xx invalid). A line
      // answered with a Response (or 413, 429, 5xx) answers the whole request with it; otherwise
      // 202 when every line is accepted, else 422 with the invalid lines rejected and the others
      // rolled back.
      http.post(`${base}/api/v1/:endpoint/batch`, async ({ request }) => {
        const path = new URL(request.url).pathname.replace(/\/batch$/, '')
        const lines = (await request.text()).split('\n').filter(Boolean)
        const statuses: number[] = []
        for (const line of lines) {
          seen.push({ path, headers: request.headers, body: JSON.parse(line) })
          const answer = next()
          if (typeof answer !== 'number') return typeof answer === 'function' ? answer() : answer
          if (answer === 413 || answer === 429 || answer >= 500)
            return HttpResponse.json({ error: 'e' }, { status: answer })
          statuses.push(answer)
        }
        const rejected = statuses.some((status) => status >= 300)
        const results = statuses.map((status, index) =>
          status >= 300
            ? { index, status: 'rejected', type: 'event', errors: [`line ${index} is invalid`] }
            : rejected
              ? { index, status: 'rolled_back', type: 'event', errors: ['rolled back'] }
              : { index, status: 'accepted', type: 'event', id: 'x', duplicate: status === 200 },
        )
        return HttpResponse.json(
          { schema_version: 1, batch_id: 'b', status: rejected ? 'rejected' : 'accepted', results },
          { status: rejected ? 422 : 202 },
        )
      }),
      http.post(`${base}/api/v1/:endpoint`, async ({ request }) => {
        const path = new URL(request.url).pathname
        seen.push({ path, headers: request.headers, body: await request.json() })
        const answer = next()
        if (typeof answer === 'number') {
          return HttpResponse.json(
            answer < 300 ? { id: 'x', status: 'accepted' } : { error: 'e' },
            {
              status: answer,
            },
          )
        }
        return typeof answer === 'function' ? answer() : answer
      }),
    )
    return seen
  }
  return { server, serve }
}
