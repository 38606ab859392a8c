import { runScript } from '@tis/test-utils/run-script'
import { ADMIN_TOKEN, createClient, type Harness } from '@tis/test-utils/server'
import { expect } from 'vitest'

/** A fresh project as a Sentry SDK sees it (its DSN), and a reader of its read API. */
export interface SentryProject {
  readonly projectId: string
  readonly dsn: string
  readonly number: number
  /** GETs `/api/v1/projects/:id<path>` as the administrator, expects 200, resolves the body. */
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary response fields
  read(path: string): Promise<any>
}

/** Creates a project on `harness` and resolves its DSN (checked for Sentry's shape). */
export async function createSentryProject(harness: Harness): Promise<SentryProject> {
  const c = createClient(harness.url)
  const project = await c.createProject()
  const got = await c.api('GET', `/api/v1/projects/${project.id}`, { token: ADMIN_TOKEN })
  const { dsn, number } = got.body.project as { dsn: string; number: number }
  expect(dsn).toMatch(new RegExp(`^http://[0-9a-f]{32}@127\\.0\\.0\\.1:\\d+/${number}$`))
  const read = async (path: string) => {
    const r = await c.api('GET', `/api/v1/projects/${project.id}${path}`, { token: ADMIN_TOKEN })
    expect(r.status, r.text).toBe(200)
    return r.body
  }
  return { projectId: project.id, dsn, number, read }
}

/** Sentry's 32-hex event id as the UUID tis stores it under. */
export const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`

/** The ids a Sentry application fixture reports on its last line of output. */
export interface SentryIds {
  readonly errorId: string
  readonly messageId: string
  readonly traceId: string
}

/**
 * The trace `traceId` read back as `[name, kind, depth]` per span, shallowest first. The read API
 * orders spans by start time, which ties when a child starts in its parent's millisecond (SDKs
 * send microseconds; tis keeps milliseconds), so the order within one depth is by name.
 */
export async function traceShape(project: SentryProject, traceId: string) {
  const trace = await project.read(`/traces/${traceId}`)
  const spans = trace.spans as { name: string; kind: string; depth: number }[]
  return spans
    .map((s) => [s.name, s.kind, s.depth] as const)
    .sort((a, b) => a[2] - b[2] || a[0].localeCompare(b[0]))
}

/**
 * Runs a Sentry application fixture (`command args…`) with `DSN` set to the project's DSN;
 * expects it to exit 0 and resolves the JSON it printed last.
 */
export async function runSentryFixture<T extends SentryIds>(
  project: SentryProject,
  command: string,
  args: readonly string[],
): Promise<T> {
  const run = await runScript(command, args, { env: { DSN: project.dsn }, timeoutMs: 60_000 })
  expect(run.code, run.stderr).toBe(0)
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as T
}

/** What differs between the Sentry application fixtures, which otherwise send the same data. */
export interface SentryAppExpectation {
  /** The title of the exception's issue, as the SDK's runtime words the TypeError. */
  readonly errorTitle: string
  /** The transaction's name. */
  readonly transaction: string
  /** Its trace as {@link traceShape} reads it. */
  readonly trace: readonly (readonly [name: string, kind: string, depth: number])[]
  /** Names of the transactions the SDK sends by itself (a browser's pageload). @default [] */
  readonly automaticTransactions?: readonly string[]
}

/**
 * Reads back what each Sentry application fixture sends — a TypeError (environment
 * `production`, release `shop@1.4.2`, tag `region`, user `u-42`), the message `cache warmed` and
 * a transaction with one child span — through the read API, and resolves the error event and its
 * frames (innermost first) for the SDK's own checks.
 */
export async function expectSentryAppData(
  project: SentryProject,
  ids: SentryIds,
  expected: SentryAppExpectation,
) {
  // The exception and the message: one issue each.
  const { issues } = await project.read('/issues')
  const titles = issues.map((i: { title: string }) => i.title).sort()
  expect(titles).toEqual([expected.errorTitle, 'cache warmed'].sort())
  const { event, frames } = await project.read(`/events/${uuidOf(ids.errorId)}`)
  expect(event).toMatchObject({
    event_type: 'error',
    level: 'error',
    environment: 'production',
    release: 'shop@1.4.2',
  })
  expect(event.context.exception.exception_class).toBe('TypeError')
  expect(event.context.tags).toMatchObject({ region: 'eu-west-1' })
  expect(event.context.user).toMatchObject({ id: 'u-42' })
  const message = await project.read(`/events/${uuidOf(ids.messageId)}`)
  expect(message.event).toMatchObject({ message: 'cache warmed', level: 'info' })
  // The transaction and its trace tree.
  const { transactions } = await project.read('/transactions')
  const names = [expected.transaction, ...(expected.automaticTransactions ?? [])]
  expect(transactions).toEqual(
    expect.arrayContaining(
      names.map((name) => expect.objectContaining({ name, count: 1, error_count: 0 })),
    ),
  )
  expect(transactions).toHaveLength(names.length)
  expect(await traceShape(project, ids.traceId)).toEqual(expected.trace)
  return { event, frames }
}
