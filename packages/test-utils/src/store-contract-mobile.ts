import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { at, MOBILE_BINDING, seedProject, uniqueHash } from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** Mobile ingest tokens, project rate-limit overrides and the shared rate-limit counters. */
export function describeMobileContract(h: () => StoreHarness) {
  async function mint(expiresAt = at(3600)) {
    const { store } = h()
    const { projectId } = await seedProject(store)
    const parent = await store.createApiKey({
      id: randomUUID(),
      projectId,
      name: 'server',
      tokenDigest: uniqueHash(),
      createdAt: at(0),
    })
    const id = randomUUID()
    const tokenDigest = uniqueHash()
    const token = await store.createMobileToken({
      ...MOBILE_BINDING,
      id,
      projectId,
      parentKeyId: parent.id,
      tokenDigest,
      createdAt: at(1),
      expiresAt,
    })
    return { store, projectId, parentId: parent.id, id, tokenDigest, token }
  }

  describe('mobile tokens', () => {
    it('creates a token with its binding, found by digest as a mobile credential', async () => {
      const { store, projectId, parentId, id, tokenDigest, token } = await mint()
      expect(token).toEqual({
        ...MOBILE_BINDING,
        id,
        projectId,
        parentKeyId: parentId,
        createdAt: at(1),
        expiresAt: at(3600),
        revokedAt: null,
      })
      expect(await store.findCredential(tokenDigest)).toEqual({
        id,
        kind: 'mobile',
        projectId,
        projectStatus: 'active',
        integrationKind: 'node',
        revokedAt: null,
        expiresAt: at(3600),
        binding: MOBILE_BINDING,
        rateLimit: null,
        projectNumber: expect.any(Number),
        dataScrubbing: null,
      })
      expect(await store.listApiKeys(projectId)).toHaveLength(1)
    })

    it('keeps optional binding fields null', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const parent = await store.createApiKey({
        id: randomUUID(),
        projectId,
        name: 'k',
        tokenDigest: uniqueHash(),
        createdAt: at(0),
      })
      const tokenDigest = uniqueHash()
      await store.createMobileToken({
        ...MOBILE_BINDING,
        release: null,
        sessionId: null,
        id: randomUUID(),
        projectId,
        parentKeyId: parent.id,
        tokenDigest,
        createdAt: at(1),
        expiresAt: at(2),
      })
      expect((await store.findCredential(tokenDigest))?.binding).toEqual({
        ...MOBILE_BINDING,
        release: null,
        sessionId: null,
      })
    })

    it('lists only live tokens: not expired, not revoked, parent key not revoked', async () => {
      const { store, projectId, id } = await mint(at(100))
      expect((await store.listMobileTokens(projectId, at(99))).map((t) => t.id)).toEqual([id])
      expect(await store.listMobileTokens(projectId, at(100))).toEqual([])
      expect(await store.listMobileTokens('not-a-uuid', at(0))).toEqual([])

      const revoked = await mint()
      expect(await store.revokeMobileToken(revoked.projectId, revoked.id, at(5))).toBe(true)
      expect(await store.listMobileTokens(revoked.projectId, at(6))).toEqual([])

      const orphan = await mint()
      await store.revokeApiKey(orphan.projectId, orphan.parentId, at(7))
      expect(await store.listMobileTokens(orphan.projectId, at(8))).toEqual([])
    })

    it('revokes a token idempotently, only within its project and only mobile tokens', async () => {
      const { store, projectId, parentId, id, tokenDigest } = await mint()
      const other = await seedProject(store)
      expect(await store.revokeMobileToken(other.projectId, id, at(2))).toBe(false)
      expect(await store.revokeMobileToken(projectId, parentId, at(2))).toBe(false)
      expect(await store.revokeMobileToken(projectId, 'not-a-uuid', at(2))).toBe(false)
      expect(await store.revokeMobileToken(projectId, id, at(3))).toBe(true)
      expect(await store.revokeMobileToken(projectId, id, at(4))).toBe(true)
      expect((await store.findCredential(tokenDigest))?.revokedAt).toEqual(at(3))
    })

    it('reports a token revoked when its parent API key is revoked', async () => {
      const { store, projectId, parentId, tokenDigest } = await mint()
      await store.revokeApiKey(projectId, parentId, at(9))
      expect(await store.findCredential(tokenDigest)).toMatchObject({
        kind: 'mobile',
        revokedAt: at(9),
      })
    })
  })

  describe('rate-limit overrides', () => {
    it('sets, shows on the project and the credential, and clears overrides', async () => {
      const { store, projectId, tokenDigest } = await mint()
      const override = { requests: 5, periodSeconds: null, authFailureRequests: 7 }
      expect((await store.setProjectRateLimit(projectId, override))?.rateLimit).toEqual(override)
      expect((await store.findProject(projectId))?.rateLimit).toEqual(override)
      expect((await store.findCredential(tokenDigest))?.rateLimit).toEqual(override)
      expect((await store.setProjectRateLimit(projectId, null))?.rateLimit).toBeNull()
      expect(await store.setProjectRateLimit(randomUUID(), override)).toBeNull()
    })
  })

  describe('shared rate-limit counters', () => {
    it('adds increments atomically and answers each total in order', async () => {
      const { incrementWindows } = h().store
      if (!incrementWindows) return
      const increment = incrementWindows.bind(h().store)
      const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`]
      const inc = (key: string, count: number, windowStart = 600) => ({
        key,
        windowStart,
        windowSeconds: 60,
        count,
      })
      expect(await increment([inc(b, 2), inc(a, 3)])).toEqual([2, 3])
      expect(await increment([inc(a, 1), inc(a, 4, 660)])).toEqual([4, 4])
      const concurrent = await Promise.all(Array.from({ length: 5 }, () => increment([inc(b, 1)])))
      expect(concurrent.map((t) => t[0]).sort()).toEqual([3, 4, 5, 6, 7])
      expect(await increment([])).toEqual([])
    })

    it('prunes windows that ended', async () => {
      const { store } = h()
      if (!store.incrementWindows || !store.pruneWindows) return
      const key = `p-${randomUUID()}`
      const inc = { key, windowStart: 0, windowSeconds: 60, count: 1 }
      await store.incrementWindows([inc])
      await store.pruneWindows(new Date(61_000))
      expect(await store.incrementWindows([inc])).toEqual([1])
    })
  })
}
