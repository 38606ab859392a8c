import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const DIR = fileURLToPath(new URL('../fixtures/github/', import.meta.url))

/** The GitHub API responses of `fixtures/github` (see its README for where they come from). */
export type GitHubFixture =
  | 'raw-200'
  | 'not-found-404'
  | 'rate-limited-403'
  | 'secondary-limit-429'
  | 'bad-credentials-401'
  | 'forbidden-403'

interface FixtureFile {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body?: unknown
  readonly bodyFile?: string
}

/** The raw text of a fixture body file, e.g. `handler.ts.txt`. */
export function githubFixtureText(file: string): string {
  return readFileSync(`${DIR}${file}`, 'utf8')
}

/**
 * A fresh `Response` of a recorded GitHub answer; `overrides` replace headers (e.g. a
 * `x-ratelimit-reset` relative to the test's clock) and `body` replaces a raw body.
 */
export function githubFixture(
  name: GitHubFixture,
  overrides: { headers?: Record<string, string>; body?: string } = {},
): Response {
  const f = JSON.parse(readFileSync(`${DIR}${name}.json`, 'utf8')) as FixtureFile
  const body =
    overrides.body ??
    (f.bodyFile !== undefined ? githubFixtureText(f.bodyFile) : JSON.stringify(f.body))
  return new Response(body, { status: f.status, headers: { ...f.headers, ...overrides.headers } })
}
