import { randomUUID } from 'node:crypto'
import type { CachedSourceFile, SourceSettingsRecord } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import { at, seedProject } from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** The source excerpt cache (keyed by scope, repository, path, commit) and project source settings. */
export function describeSourceContract(h: () => StoreHarness) {
  const file = (f: Partial<CachedSourceFile> = {}): CachedSourceFile => ({
    scope: `server:https://api.github.com/${randomUUID()}`,
    repository: 'octo/app',
    path: 'src/handler.ts',
    commitSha: 'abcdef0123456789abcdef0123456789abcdef01',
    status: 'ok',
    content: 'line 1\nline 2\n',
    fetchedAt: at(10),
    ...f,
  })

  describe('source files', () => {
    it('finds a saved file by its key, content intact', async () => {
      const { store } = h()
      const saved = file({ content: "const s = 'é 𝄞 \\n'\r\n\ttabbed\n" })
      await store.saveSourceFile(saved)
      expect(await store.findSourceFiles([saved])).toEqual([saved])
    })

    it('tells keys apart by scope, repository, path and commit', async () => {
      const { store } = h()
      const saved = file()
      await store.saveSourceFile(saved)
      const others = [
        { ...saved, scope: `${saved.scope}x` },
        { ...saved, repository: 'octo/other' },
        { ...saved, path: 'src/handler.tsx' },
        { ...saved, commitSha: 'abcdef0' },
      ]
      expect(await store.findSourceFiles(others)).toEqual([])
      expect(await store.findSourceFiles([...others, saved])).toEqual([saved])
    })

    it('answers several keys at once, and none for an empty list', async () => {
      const { store } = h()
      const scope = `server:${randomUUID()}`
      const a = file({ scope, path: 'a.ts' })
      const b = file({ scope, path: 'b.ts', status: 'not_found', content: null })
      await store.saveSourceFile(a)
      await store.saveSourceFile(b)
      const found = await store.findSourceFiles([b, a, file({ scope, path: 'c.ts' })])
      expect([...found].sort((x, y) => x.path.localeCompare(y.path))).toEqual([a, b])
      expect(await store.findSourceFiles([])).toEqual([])
    })

    it('replaces a cached answer of the same key (a not_found later found)', async () => {
      const { store } = h()
      const missing = file({ status: 'not_found', content: null, fetchedAt: at(1) })
      await store.saveSourceFile(missing)
      const found = { ...missing, status: 'ok' as const, content: 'x', fetchedAt: at(2) }
      await store.saveSourceFile(found)
      expect(await store.findSourceFiles([missing])).toEqual([found])
    })

    it('keeps long paths and scopes (hashed keys)', async () => {
      const { store } = h()
      const long = file({
        path: `${'deep/'.repeat(400)}x.ts`,
        scope: `project:${'u'.repeat(3000)}`,
      })
      await store.saveSourceFile(long)
      expect(await store.findSourceFiles([long])).toEqual([long])
    })
  })

  describe('source settings', () => {
    it('is null for a project without settings, and for a non-UUID id', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      expect(await store.findSourceSettings(projectId)).toBeNull()
      expect(await store.findSourceSettings('not-a-uuid')).toBeNull()
    })

    it('saves, reads back and replaces settings', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const settings: SourceSettingsRecord = {
        projectId,
        githubTokenSealed: 'v1.iv.tag.data',
        pathPrefix: '/app/',
        contextLines: 7,
        githubApiUrl: 'https://ghe.example.com/api/v3',
        updatedAt: at(5),
      }
      await store.saveSourceSettings(settings)
      expect(await store.findSourceSettings(projectId)).toEqual(settings)
      const cleared: SourceSettingsRecord = {
        projectId,
        githubTokenSealed: null,
        pathPrefix: null,
        contextLines: null,
        githubApiUrl: null,
        updatedAt: at(6),
      }
      await store.saveSourceSettings(cleared)
      expect(await store.findSourceSettings(projectId)).toEqual(cleared)
    })

    it('refuses settings of an unknown project', async () => {
      const { store } = h()
      await expect(
        store.saveSourceSettings({
          projectId: randomUUID(),
          githubTokenSealed: null,
          pathPrefix: null,
          contextLines: null,
          githubApiUrl: null,
          updatedAt: at(1),
        }),
      ).rejects.toThrow()
    })
  })
}
