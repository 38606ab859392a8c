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
    server.use(
      http.post(`${base}/api/v1/:endpoint`, async ({ request }) => {
        const path = new URL(request.url).pathname
        seen.push({ path, headers: request.headers, body: await request.json() })
        const answer = answers[Math.min(seen.length - 1, answers.length - 1)] ?? 201
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
