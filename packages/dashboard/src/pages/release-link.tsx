/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Html } from '../layout'
import { queryString } from '../layout'

/**
 * The path of a release's page: the version percent-encoded as one path segment (versions hold
 * `+`, `@`, spaces and even `/`), with the list's filters when given.
 */
export function releaseHref(
  project: { readonly base: string; readonly projectId: string },
  version: string,
  query: Record<string, string | undefined> = {},
): string {
  const path = `${project.base}/projects/${project.projectId}/releases/${encodeURIComponent(version)}`
  return `${path}${queryString(query)}`
}

/** A release's version linking to its page; a dash when there is none. */
export function ReleaseLink(props: {
  base: string
  projectId: string
  version: string | null | undefined
}): Html {
  if (!props.version) return <span class="muted">—</span>
  return <a href={releaseHref(props, props.version)}>{props.version}</a>
}
