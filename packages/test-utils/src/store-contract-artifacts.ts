import { randomUUID } from 'node:crypto'
import type { ProjectionEnricher } from '@tis/ingest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ArtifactHarness,
  type ArtifactStoreFactory,
  artifactBundle,
  artifactFile,
  sha1Of,
  utf8,
} from './artifact-fixtures'
import { describeArtifactLifecycleContract } from './store-contract-artifacts-lifecycle'
import { seedProject } from './store-fixtures'

export type { ArtifactHarness, ArtifactStoreFactory } from './artifact-fixtures'

/** Rows of a table whose `sha1` is one of `sha1s`. */
const countBySha1 = (h: ArtifactHarness, table: string, sha1s: string[]) =>
  h
    .query<{ n: number }>(`select count(*)::int as n from ${table} where sha1 = any($1::text[])`, [
      `{${sha1s.join(',')}}`,
    ])
    .then((rows) => rows[0]?.n ?? 0)

/**
 * The contract of the `ArtifactStore` port (source-map uploads): bundles and their look-ups,
 * contents stored once by hash, deletion, chunks, and (in the lifecycle part) retention, disk
 * use and the projection's enricher. `factory` is called once, before the suite.
 */
export function describeArtifactStoreContract(name: string, factory: ArtifactStoreFactory): void {
  describe(`ArtifactStore contract: ${name}`, () => {
    let harness: ArtifactHarness | undefined
    // The enricher the store was made with delegates to what the running test sets.
    let current: ProjectionEnricher | undefined
    const enrich: ProjectionEnricher = (ops, lookup) =>
      current ? current(ops, lookup) : Promise.resolve(ops)
    const h = () => {
      if (!harness) throw new Error('the store factory failed; see beforeAll')
      return harness
    }
    const store = () => h().store
    beforeAll(async () => {
      harness = await factory({ enrich })
    }, 120_000)
    afterAll(async () => {
      await harness?.close()
    })

    it('finds files by debug ID and by release, dist and url, and reads their bytes', async () => {
      const { projectId } = await seedProject(store())
      const debugId = randomUUID()
      const min = artifactFile('~/assets/app.js', { debugId })
      const map = artifactFile('~/assets/app.js.map', { type: 'source_map', debugId })
      const saved = await store().saveArtifactBundle(
        artifactBundle(projectId, [min, map], { release: '1.0', dist: 'web' }),
      )
      const plain = artifactFile('~/assets/app.js')
      const noDist = await store().saveArtifactBundle(
        artifactBundle(projectId, [plain], { release: '1.0' }),
      )
      expect(saved).toMatchObject({ projectId, fileCount: 2, release: '1.0', dist: 'web' })
      expect(saved.size).toBe(min.size + map.size)
      expect(saved.debugIds).toEqual([debugId])
      expect(saved.lastUsedAt).toEqual(saved.uploadedAt)
      const byId = await store().findArtifactsByDebugId(projectId, [debugId.toUpperCase()])
      expect(byId.map((f) => f.url).sort()).toEqual(['~/assets/app.js', '~/assets/app.js.map'])
      expect(byId[0]).toMatchObject({ bundleId: saved.id, release: '1.0', dist: 'web' })
      expect(byId.find((f) => f.type === 'source_map')).toMatchObject({
        debugId,
        headers: { 'debug-id': debugId },
        sha1: map.sha1,
        size: map.size,
      })
      const url = (dist: string | null, ...urls: string[]) =>
        store().findArtifactsByUrl(projectId, '1.0', dist, urls)
      expect((await url('web', '~/assets/app.js')).map((f) => f.sha1)).toEqual([min.sha1])
      // A null dist finds the files uploaded without one, and only those.
      expect((await url(null, '~/assets/app.js')).map((f) => f.bundleId)).toEqual([noDist.id])
      expect(await url('ios', '~/assets/app.js')).toEqual([])
      expect(await url('web', '~/assets/other.js', 'assets/app.js')).toEqual([])
      expect(
        await store().findArtifactsByUrl(projectId, '2.0', 'web', ['~/assets/app.js']),
      ).toEqual([])
      const bytes = await store().readArtifacts([map.sha1, min.sha1, 'f'.repeat(40)])
      expect(bytes.size).toBe(2)
      expect(bytes.get(map.sha1)).toEqual(map.content)
      expect(bytes.get(map.sha1)).toBeInstanceOf(Uint8Array)
    })

    it('lists bundles newest first (by release, up to a limit) and a bundle’s files in order', async () => {
      const { projectId } = await seedProject(store())
      const at = (d: number) => new Date(Date.UTC(2026, 0, d))
      const files = [artifactFile('~/a.js'), artifactFile('~/a.js.map', { type: 'source_map' })]
      const old = await store().saveArtifactBundle(
        artifactBundle(projectId, files, { release: 'r1', uploadedAt: at(1) }),
      )
      const mid = await store().saveArtifactBundle(
        artifactBundle(projectId, [artifactFile('~/b.js')], { release: 'r2', uploadedAt: at(2) }),
      )
      const last = await store().saveArtifactBundle(
        artifactBundle(projectId, [artifactFile('~/c.js')], { release: 'r1', uploadedAt: at(3) }),
      )
      const ids = (list: readonly { id: string }[]) => list.map((b) => b.id)
      expect(ids(await store().listArtifactBundles(projectId))).toEqual([last.id, mid.id, old.id])
      expect(ids(await store().listArtifactBundles(projectId, { limit: 2 }))).toEqual([
        last.id,
        mid.id,
      ])
      expect(ids(await store().listArtifactBundles(projectId, { release: 'r1' }))).toEqual([
        last.id,
        old.id,
      ])
      const listed = await store().listArtifactFiles(projectId, old.id)
      expect(listed.map((f) => f.url)).toEqual(['~/a.js', '~/a.js.map'])
      expect(await store().findArtifactBundle(projectId, old.checksum)).toEqual(old)
      expect(await store().findArtifactBundle(projectId, 'nope')).toBeNull()
    })

    it('stores a content once across bundles and projects, and the same upload once', async () => {
      const { projectId } = await seedProject(store())
      const other = (await seedProject(store())).projectId
      const text = `shared ${randomUUID()}`
      const shared = () => artifactFile('~/vendor.js', { text })
      const first = await store().saveArtifactBundle(artifactBundle(projectId, [shared()]))
      await store().saveArtifactBundle(artifactBundle(projectId, [shared(), artifactFile('~/x')]))
      await store().saveArtifactBundle(artifactBundle(other, [shared()]))
      expect(await countBySha1(h(), 'artifact_blobs', [shared().sha1])).toBe(1)
      expect(await countBySha1(h(), 'artifact_files', [shared().sha1])).toBe(3)
      // The same (project, checksum) again: the stored bundle, nothing added.
      const again = await store().saveArtifactBundle(
        artifactBundle(projectId, [shared(), artifactFile('~/y')], { checksum: first.checksum }),
      )
      expect(again).toEqual(first)
      expect(await store().listArtifactBundles(projectId)).toHaveLength(2)
      expect(await countBySha1(h(), 'artifact_files', [shared().sha1])).toBe(3)
      // Another project's upload with that checksum is its own.
      const theirs = await store().saveArtifactBundle(
        artifactBundle(other, [shared()], { checksum: first.checksum }),
      )
      expect(theirs.id).not.toBe(first.id)
    })

    it('deletes a bundle and the contents no other file uses, only those', async () => {
      const { projectId } = await seedProject(store())
      const other = (await seedProject(store())).projectId
      const text = `kept ${randomUUID()}`
      const own = artifactFile('~/own.js')
      const doomed = await store().saveArtifactBundle(
        artifactBundle(projectId, [artifactFile('~/s.js', { text }), own]),
      )
      await store().saveArtifactBundle(artifactBundle(other, [artifactFile('~/s.js', { text })]))
      const kept = artifactFile('~/s.js', { text }).sha1
      expect(await store().deleteArtifactBundle(other, doomed.id)).toBe(false)
      expect(await store().deleteArtifactBundle(projectId, doomed.id)).toBe(true)
      expect(await store().deleteArtifactBundle(projectId, doomed.id)).toBe(false)
      expect(await store().deleteArtifactBundle(projectId, 'not-a-uuid')).toBe(false)
      expect(await store().listArtifactFiles(projectId, doomed.id)).toEqual([])
      expect(await store().findArtifactBundle(projectId, doomed.checksum)).toBeNull()
      expect(await countBySha1(h(), 'artifact_blobs', [own.sha1])).toBe(0)
      const left = await store().readArtifacts([kept, own.sha1])
      expect([...left.keys()]).toEqual([kept])
    })

    it('stores and reads back a 10 MB content byte for byte', async () => {
      const { projectId } = await seedProject(store())
      const content = new Uint8Array(10 * 1024 * 1024)
      for (let i = 0; i < content.length; i += 4096) content[i] = (i / 4096) % 256
      content.set(utf8(randomUUID()), 0)
      const file = { ...artifactFile('~/big.js.map', { type: 'source_map' }), content }
      const big = { ...file, sha1: sha1Of(content), size: content.byteLength }
      const saved = await store().saveArtifactBundle(artifactBundle(projectId, [big]))
      expect(saved.size).toBe(content.byteLength)
      const read = (await store().readArtifacts([big.sha1])).get(big.sha1)
      expect(read?.byteLength).toBe(content.byteLength)
      expect(sha1Of(read!)).toBe(big.sha1)
    }, 60_000)

    it("never shows a project another project's uploads", async () => {
      const a = (await seedProject(store())).projectId
      const b = (await seedProject(store())).projectId
      const debugId = randomUUID()
      const file = artifactFile('~/app.js', { debugId })
      const bundle = await store().saveArtifactBundle(artifactBundle(a, [file], { release: 'r' }))
      expect(await store().findArtifactsByDebugId(b, [debugId])).toEqual([])
      expect(await store().findArtifactsByUrl(b, 'r', null, ['~/app.js'])).toEqual([])
      expect(await store().listArtifactBundles(b)).toEqual([])
      expect(await store().listArtifactFiles(b, bundle.id)).toEqual([])
      expect(await store().findArtifactBundle(b, bundle.checksum)).toBeNull()
      expect(await store().artifactUsage(b)).toEqual({ bundles: 0, bytes: 0 })
      expect(await store().findArtifactsByDebugId('not-a-uuid', [debugId])).toEqual([])
      await expect(
        store().saveArtifactBundle(artifactBundle(randomUUID(), [file])),
      ).rejects.toMatchObject({ name: 'StoreError', code: 'not_found' })
    })

    it('keeps chunks per owner, says which are missing, and prunes old ones', async () => {
      const [alice, bob] = [randomUUID(), randomUUID()]
      const chunk = (text: string) => {
        const content = utf8(`${text} ${randomUUID()}`)
        return { sha1: sha1Of(content), content }
      }
      const [one, two, three] = [chunk('one'), chunk('two'), chunk('three')]
      const long = new Date(Date.UTC(2001, 0, 1))
      await store().putChunks(alice, [one, two], long)
      const list = [three.sha1, one.sha1, three.sha1, two.sha1]
      expect(await store().missingChunks(alice, list)).toEqual([three.sha1])
      expect(await store().missingChunks(bob, list)).toEqual([three.sha1, one.sha1, two.sha1])
      // A chunk stored again is kept as first stored.
      await store().putChunks(alice, [{ sha1: one.sha1, content: utf8('other') }], new Date())
      const read = await store().readChunks(alice, [one.sha1, three.sha1])
      expect([...read.keys()]).toEqual([one.sha1])
      expect(read.get(one.sha1)).toEqual(one.content)
      expect((await store().readChunks(bob, [one.sha1])).size).toBe(0)
      await store().putChunks(bob, [three], new Date(Date.UTC(2001, 0, 3)))
      expect(await store().pruneChunks(new Date(Date.UTC(2001, 0, 2)))).toBe(2)
      expect(await store().missingChunks(alice, [one.sha1, two.sha1])).toHaveLength(2)
      expect(await store().missingChunks(bob, [three.sha1])).toEqual([])
    })

    describeArtifactLifecycleContract(h, (next) => {
      current = next
    })
  })
}
