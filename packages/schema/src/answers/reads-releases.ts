import * as z from 'zod'
import { component, dateTimeField, nullableString, pageOf, storedTimeField } from './common'
import { storedDeploymentSchema } from './reads-deployments'
import { issueSchema } from './reads-issues'

// Release health as the read API answers it (`GET …/releases`, `GET …/releases/{version}`);
// docs/release-health.md has the definitions (Sentry's).

const count = z.int().min(0)
const rate = z.number().min(0).max(1).nullable()

/** The health fields of a release over a window. */
const releaseFields = {
  version: z.string(),
  environment: nullableString.meta({
    description: 'The environment asked for; null: all environments together.',
  }),
  first_seen_at: storedTimeField,
  last_seen_at: storedTimeField,
  sessions: z
    .strictObject({
      total: count,
      healthy: count,
      errored: count.meta({ description: 'Had errors, did not crash or end abnormally.' }),
      crashed: count,
      abnormal: count,
    })
    .meta({ description: 'Sessions started in the window, by how they ended.' }),
  users: z.strictObject({ total: count, crashed: count }).meta({
    description:
      "Distinct users (the SDK's `did`) over the window's whole hours, and those with a crashed session; exact.",
  }),
  crash_free_sessions: rate.meta({ description: '1 - crashed / total; null without sessions.' }),
  crash_free_users: rate.meta({
    description: '1 - crashed users / users; null without users.',
  }),
  adoption: rate.meta({
    description:
      "The release's share of the environment's sessions in the last 24 hours; null when it had none.",
  }),
}

/** One release in the list. */
export const releaseHealthSchema = component(
  'ReleaseHealth',
  z.strictObject(releaseFields),
  "A release's health over the window asked for.",
)
/** A release as the list answers it. */
export type ReleaseHealth = z.output<typeof releaseHealthSchema>

/** The answer of `GET …/releases`. */
export const releasePageSchema = pageOf('releases', releaseHealthSchema)
/** The answer of `GET …/releases`. */
export type ReleasePage = z.output<typeof releasePageSchema>

/** One bucket of a release's series. */
export const releaseSeriesBucketSchema = component(
  'ReleaseSeriesBucket',
  z.strictObject({ at: dateTimeField, sessions: count, crashed: count, errored: count }),
  'Sessions started in one bucket of `interval_seconds`; empty buckets are left out.',
)

/** The answer of `GET …/releases/{version}`. */
export const releaseDetailSchema = component(
  'ReleaseDetail',
  z.strictObject({
    release: z.strictObject({
      ...releaseFields,
      since: dateTimeField,
      until: dateTimeField,
      interval_seconds: z.int().min(60),
      series: z.array(releaseSeriesBucketSchema),
      new_issues: z.array(issueSchema).meta({ description: 'Issues first seen in the release.' }),
      deployments: z.array(storedDeploymentSchema),
    }),
  }),
  'One release: its health, sessions over time, new issues and deployments.',
)
/** The answer of `GET …/releases/{version}`. */
export type ReleaseDetail = z.output<typeof releaseDetailSchema>
