// Human-readable output of the CLI. `--json` bypasses all of this and prints the API's JSON.

/** A project as the API returns it. */
export interface ProjectJson {
  readonly id: string
  readonly name: string
  readonly integration_kind: string
  readonly status: string
  readonly created_at: string
  readonly archived_at: string | null
}

/** An API key as the API returns it. */
export interface ApiKeyJson {
  readonly id: string
  readonly name: string
  readonly created_at: string
  readonly revoked_at: string | null
}

/** Left-aligned columns with a header row; `(none)` when there are no rows. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '(none)\n'
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')
  return `${[header, ...rows].map(line).join('\n')}\n`
}

/** One project as `key: value` lines. */
export function projectDetails(project: ProjectJson): string {
  return [
    `id:        ${project.id}`,
    `name:      ${project.name}`,
    `kind:      ${project.integration_kind}`,
    `status:    ${project.status}`,
    `created:   ${project.created_at}`,
    ...(project.archived_at ? [`archived:  ${project.archived_at}`] : []),
  ]
    .join('\n')
    .concat('\n')
}

/** Projects as a table. */
export function projectTable(projects: readonly ProjectJson[]): string {
  return table(
    ['ID', 'NAME', 'KIND', 'STATUS', 'CREATED'],
    projects.map((p) => [p.id, p.name, p.integration_kind, p.status, p.created_at]),
  )
}

/** API keys as a table (tokens are never listed: they are shown once, at creation). */
export function keyTable(keys: readonly ApiKeyJson[]): string {
  return table(
    ['ID', 'NAME', 'CREATED', 'REVOKED'],
    keys.map((k) => [k.id, k.name, k.created_at, k.revoked_at ?? '-']),
  )
}
