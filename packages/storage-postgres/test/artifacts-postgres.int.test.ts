// Source-map uploads on PostgreSQL with connections of their own, as two server processes: a
// bundle deleted while an upload that reuses one of its contents is still writing keeps that
// content (PGlite has one connection, so the contract suite cannot interleave them).

import { randomBytes, randomUUID } from 'node:crypto'
import { artifactBundle, artifactFile } from '@tis/test-utils/artifact-fixtures'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { seedProject } from '@tis/test-utils/store-fixtures'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openPostgresStore, type PostgresIngestStore } from '../src/index'

describeWithTestDatabase('artifact storage on PostgreSQL, concurrently', (url) => {
  const schema = `tis_test_${randomBytes(6).toString('hex')}`
  const client = { max: 4, onnotice: () => {}, connection: { search_path: schema } } as const
  let admin: postgres.Sql
  let uploader: PostgresIngestStore
  let deleter: PostgresIngestStore

  beforeAll(async () => {
    admin = postgres(url, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create schema ${schema}`)
    uploader = await openPostgresStore(url, { client })
    deleter = await openPostgresStore(url, { client })
    // Holds an upload's transaction open after it took its contents and before its files are
    // written: the window in which a delete could take a content from under it.
    await admin.unsafe(`
      create function ${schema}.slow_file() returns trigger language plpgsql as $$
        begin if new.url = '~/slow.js' then perform pg_sleep(0.6); end if; return new; end $$;
      create trigger slow_file before insert on ${schema}.artifact_files
        for each row execute function ${schema}.slow_file();`)
  }, 60_000)
  afterAll(async () => {
    await Promise.all([uploader?.close(), deleter?.close()])
    await admin?.unsafe(`drop schema ${schema} cascade`)
    await admin?.end()
  })

  it('keeps a content that an upload in progress reuses while its old bundle is deleted', async () => {
    const { projectId } = await seedProject(uploader)
    const text = `shared ${randomUUID()}`
    const shared = artifactFile('~/shared.js', { text })
    const old = await uploader.saveArtifactBundle(artifactBundle(projectId, [shared]))
    const saving = uploader.saveArtifactBundle(
      artifactBundle(projectId, [artifactFile('~/slow.js', { text })]),
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    const started = Date.now()
    // Its files go at once; the shared content waits for the upload to commit, then stays.
    expect(await deleter.deleteArtifactBundle(projectId, old.id)).toBe(true)
    expect(Date.now() - started).toBeGreaterThan(200)
    const saved = await saving
    expect(saved.fileCount).toBe(1)
    const left = await deleter.readArtifacts([shared.sha1])
    expect(left.get(shared.sha1)).toEqual(shared.content)
    // Deleting the last bundle that uses it takes it.
    expect(await deleter.deleteArtifactBundle(projectId, saved.id)).toBe(true)
    expect((await deleter.readArtifacts([shared.sha1])).size).toBe(0)
  })
})
