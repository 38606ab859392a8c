import * as z from 'zod'
import { component, linkField, nullableString, pageOf, storedTimeField } from './common'
import { recordIdField } from './reads-events'

// The deployments the read API lists (`GET …/deployments`) and shows in the event detail.

/**
 * A stored deployment (`deploymentJson`). Its component is `StoredDeployment`: `Deployment` is
 * the deployment ingestion accepts (`POST /api/v1/deployments`, section 2.4).
 */
export const storedDeploymentSchema = component(
  'StoredDeployment',
  z.strictObject({
    id: recordIdField,
    repository: z.string(),
    environment: z.string(),
    release: z.string(),
    commit_sha: z.string(),
    branch: nullableString,
    release_tag: nullableString,
    deployed_at: storedTimeField,
    pull_request_number: nullableString,
    pull_request_url: linkField,
    release_url: linkField,
    compare_url: linkField,
    workflow_run_url: linkField,
    deployment_url: linkField,
    source: z
      .enum(['api', 'event'])
      .meta({ description: '`event` when only known from an event.' }),
  }),
  'A deployment as stored: from `POST /api/v1/deployments` or, when only known from an event, from the event.',
)
/** A deployment as the read API answers it. */
export type StoredDeployment = z.output<typeof storedDeploymentSchema>

/** The answer of `GET …/deployments`: one page of deployments. */
export const deploymentPageSchema = pageOf('deployments', storedDeploymentSchema)
/** The answer of `GET …/deployments`. */
export type DeploymentPage = z.output<typeof deploymentPageSchema>
