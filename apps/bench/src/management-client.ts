/** A project created through the management API with one API key. */
export interface BenchProject {
  readonly projectId: string
  /** The API key's token, for `POST /api/v1/ingest_events`. */
  readonly token: string
  /** The project's Sentry DSN (`<scheme>://<key>@<host>/<number>`), as the project JSON has it. */
  readonly dsn: string | null
}

/** Creates a project and an API key for it with the admin token, over HTTP. */
export async function createProjectWithKey(
  url: string,
  adminToken: string,
  name = 'bench',
): Promise<BenchProject> {
  const auth = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }
  const created = await fetch(`${url}/api/v1/projects`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ project: { name, integration_kind: 'node' } }),
  })
  if (!created.ok) throw new Error(`POST /projects: ${created.status} ${await created.text()}`)
  const { project } = (await created.json()) as { project: { id: string; dsn?: string | null } }
  const key = await fetch(`${url}/api/v1/projects/${project.id}/api_keys`, {
    method: 'POST',
    headers: auth,
  })
  if (!key.ok) throw new Error(`POST /api_keys: ${key.status} ${await key.text()}`)
  const { token } = (await key.json()) as { token: string }
  return { projectId: project.id, token, dsn: project.dsn ?? null }
}
