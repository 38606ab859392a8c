import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** What one run of the job found. */
export interface ExportSummary {
  readonly files: number
  readonly bytes: number
}

/** The job itself, knowing nothing of tis: sums up yesterday's export files in `dir`. */
export async function summarizeExports(dir: string): Promise<ExportSummary> {
  const names = await readdir(dir)
  let bytes = 0
  for (const name of names) bytes += (await stat(join(dir, name))).size
  return { files: names.length, bytes }
}
