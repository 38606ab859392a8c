import { randomUUID } from 'node:crypto'
import type { ArtifactLookup, ProjectionEnricher, WriteOp } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import {
  type ArtifactHarness,
  artifactBundle,
  artifactFile,
  sha1Of,
  utf8,
} from './artifact-fixtures'
import { eventOp, projectAll, projectRound, seedProject, uniqueHash } from './store-fixtures'

const DAY = 86_400_000
const NOW = new Date(Date.UTC(2026, 5, 1))
const daysAgo = (n: number) => new Date(NOW.getTime() - n * DAY)

/**
 * The test's enricher: an event whose message is `resolve:<debug id>` gets the text of the
 * file with that debug ID as its message (and the file's bundle is touched at `touchAt`); one
 * whose message is `explode:<debug id>` touches that file's bundle and throws.
 */
function rewriting(touchAt: Date): ProjectionEnricher {
  const decoder = new TextDecoder()
  async function one<T extends WriteOp>(op: T, lookup: ArtifactLookup): Promise<T> {
    if (op.type !== 'event') return op
    const [verb, debugId] = (op.event.message ?? '').split(':')
    if ((verb !== 'resolve' && verb !== 'explode') || debugId === undefined) return op
    const [file] = await lookup.findArtifactsByDebugId(op.projectId, [debugId])
    if (!file) return op
    await lookup.touchArtifactBundles([file.bundleId], touchAt)
    if (verb === 'explode') throw new Error(`enricher exploded on ${debugId}`)
    const bytes = (await lookup.readArtifacts([file.sha1])).get(file.sha1)
    const message = `resolved ${decoder.decode(bytes)}`
    return { ...op, event: { ...op.event, message } }
  }
  return async (ops, lookup) => {
    const out = []
    for (const op of ops) out.push(await one(op, lookup))
    return out
  }
}

/** Retention and disk use of uploads, and the projection's enricher reading them. */
export function describeArtifactLifecycleContract(
  h: () => ArtifactHarness,
  setEnricher: (enrich: ProjectionEnricher | undefined) => void,
) {
  const store = () => h().store
  const lastUsed = async (id: string) => {
    const [row] = await h().query<{ at: Date }>(
      'select last_used_at as at from artifact_bundles where id = $1::uuid',
      [id],
    )
    return row?.at
  }

  it('expires bundles unused for the period, with their unshared contents; touch keeps them', async () => {
    const { projectId } = await seedProject(store())
    const used = await store().saveArtifactBundle(
      artifactBundle(projectId, [artifactFile('~/used.js')], { uploadedAt: daysAgo(40) }),
    )
    const stale = artifactFile('~/stale.js')
    await store().saveArtifactBundle(
      artifactBundle(projectId, [stale], { uploadedAt: daysAgo(40) }),
    )
    await store().touchArtifactBundles([used.id, 'not-a-uuid'], daysAgo(10))
    // A touch never moves a bundle back in time.
    await store().touchArtifactBundles([used.id], daysAgo(20))
    expect(await lastUsed(used.id)).toEqual(daysAgo(10))
    const pass = (dryRun: boolean) =>
      store().expireTelemetry({ now: NOW, defaultDays: 30, batchSize: 1, projectId, dryRun })
    const dry = await pass(true)
    expect(dry.projects[0]).toMatchObject({ projectId, artifactBundles: 1 })
    expect(dry.artifactChunks).toBe(0)
    expect(await store().listArtifactBundles(projectId)).toHaveLength(2)
    expect((await pass(false)).projects[0]).toMatchObject({ artifactBundles: 1 })
    expect((await store().listArtifactBundles(projectId)).map((b) => b.id)).toEqual([used.id])
    expect((await store().readArtifacts([stale.sha1])).size).toBe(0)
    expect((await pass(false)).projects[0]).toMatchObject({ artifactBundles: 0 })
    // A project kept forever keeps its uploads.
    expect(await store().setProjectRetention(projectId, 0)).toBe(true)
    await store().touchArtifactBundles([used.id], daysAgo(10))
    expect(
      (
        await store().expireTelemetry({
          now: daysAgo(-100),
          defaultDays: 30,
          batchSize: 10,
          projectId,
        })
      ).projects,
    ).toEqual([])
    expect(await store().listArtifactBundles(projectId)).toHaveLength(1)
  })

  it('prunes chunks stored over a day before the pass, in a pass over every project', async () => {
    const owner = randomUUID()
    const chunk = { sha1: 'a'.repeat(40), content: utf8(`chunk ${owner}`) }
    const fresh = { sha1: 'b'.repeat(40), content: utf8(`fresh ${owner}`) }
    const later = new Date(Date.UTC(2031, 0, 10))
    await store().putChunks(owner, [chunk], new Date(later.getTime() - 2 * DAY))
    await store().putChunks(owner, [fresh], new Date(later.getTime() - DAY / 2))
    // defaultDays 0: no project's telemetry is touched, only chunks are pruned.
    const pass = (dryRun: boolean) =>
      store().expireTelemetry({ now: later, defaultDays: 0, batchSize: 100, dryRun })
    expect((await pass(true)).artifactChunks).toBeGreaterThanOrEqual(1)
    expect(await store().missingChunks(owner, [chunk.sha1])).toEqual([])
    // A content no file uses (its project deleted, bundles and files with it) is swept too.
    const orphan = sha1Of(utf8(owner))
    await h().query(
      `insert into artifact_blobs (sha1, content, size) values ($1, convert_to($2, 'UTF8'), 36)`,
      [orphan, owner],
    )
    expect((await pass(false)).artifactChunks).toBeGreaterThanOrEqual(1)
    expect(await store().missingChunks(owner, [chunk.sha1, fresh.sha1])).toEqual([chunk.sha1])
    expect((await store().readArtifacts([orphan])).size).toBe(0)
  })

  it("counts a project's uploads in its disk use", async () => {
    const { projectId } = await seedProject(store())
    const text = `twice ${randomUUID()}`
    const a = artifactFile('~/a.js', { text })
    const b = artifactFile('~/b.js')
    await store().saveArtifactBundle(artifactBundle(projectId, [a, b]))
    await store().saveArtifactBundle(artifactBundle(projectId, [artifactFile('~/a.js', { text })]))
    const bytes = 2 * a.size + b.size
    expect(await store().artifactUsage(projectId)).toEqual({ bundles: 2, bytes })
    const usage = await store().storageUsage(projectId)
    expect(usage.artifacts).toEqual({ rows: 2, bytes })
    expect(usage.totalBytes).toBe(
      usage.events.bytes + usage.spans.bytes + usage.checkIns.bytes + bytes,
    )
  })

  describe("the projection's enricher", () => {
    async function seeded() {
      const { projectId } = await seedProject(store())
      await projectAll(store())
      const debugId = randomUUID()
      const text = `original ${randomUUID()}`
      const bundle = await store().saveArtifactBundle(
        artifactBundle(projectId, [artifactFile('~/app.js', { text, debugId })]),
      )
      return { projectId, debugId, text, bundle }
    }
    const messages = async (projectId: string) => {
      const rows = await h().query<{ id: string; message: string }>(
        'select id::text as id, message from events where project_id = $1::uuid',
        [projectId],
      )
      return new Map(rows.map((m) => [m.id, m.message]))
    }
    const touchAt = new Date(Date.UTC(2026, 2, 1))
    const resolve = (projectId: string, message: string) =>
      eventOp(projectId, { event: { message } })

    it('rewrites the ops of a round inside it, reading a bundle saved before', async () => {
      const { projectId, debugId, text, bundle } = await seeded()
      setEnricher(rewriting(touchAt))
      try {
        const ops = [resolve(projectId, `resolve:${debugId}`), eventOp(projectId)]
        await store().append(ops)
        expect((await projectRound(store(), 100)).projected).toBe(2)
        const byId = await messages(projectId)
        expect(byId.get(ops[0]!.id)).toBe(`resolved ${text}`)
        expect(byId.get(ops[1]!.id)).toBe('hello')
        // The stored payload is the rewritten event too, not the one the log holds.
        const payloads = await h().query<{ id: string; message: string }>(
          `select id::text as id, payload ->> 'message' as message from events
            where project_id = $1::uuid`,
          [projectId],
        )
        expect(new Map(payloads.map((m) => [m.id, m.message]))).toEqual(byId)
        expect(await lastUsed(bundle.id)).toEqual(touchAt)
      } finally {
        setEnricher(undefined)
      }
    })

    it('runs entry by entry after a failed round, and a throw rolls back what it did', async () => {
      const { projectId, debugId, text, bundle } = await seeded()
      const boomId = randomUUID()
      const boom = await store().saveArtifactBundle(
        artifactBundle(projectId, [artifactFile('~/boom.js', { debugId: boomId })]),
      )
      setEnricher(rewriting(touchAt))
      try {
        const ops = [
          resolve(projectId, `resolve:${debugId}`),
          eventOp(projectId, { issue: { hash: uniqueHash() } }),
          resolve(projectId, `explode:${boomId}`),
          resolve(projectId, `resolve:${debugId}`),
        ]
        await store().append(ops)
        await projectAll(store())
        const byId = await messages(projectId)
        expect(byId.get(ops[0]!.id)).toBe(`resolved ${text}`)
        expect(byId.get(ops[3]!.id)).toBe(`resolved ${text}`)
        expect(byId.get(ops[1]!.id)).toBe('hello')
        // The op whose enrichment threw failed its round: set aside, its touch rolled back.
        expect(byId.has(ops[2]!.id)).toBe(false)
        expect(await lastUsed(bundle.id)).toEqual(touchAt)
        expect(await lastUsed(boom.id)).toEqual(boom.uploadedAt)
        const failures = await h().query<{ error: string }>(
          'select error from ingest_log_failures where project_id = $1::uuid',
          [projectId],
        )
        expect(failures).toEqual([{ error: expect.stringContaining('enricher exploded') }])
      } finally {
        setEnricher(undefined)
      }
    })
  })
}
