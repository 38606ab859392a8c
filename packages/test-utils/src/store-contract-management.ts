import { createHash, randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { at, MOBILE_BINDING, seedProject, uniqueHash } from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** True for a `StoreError` with `code`, checked by name as `StoreError.is` does. */
function isStoreError(error: unknown, code: string) {
  return (
    error instanceof Error && error.name === 'StoreError' && 'code' in error && error.code === code
  )
}

/** Users, projects, members, API keys, archiving and the credential lookup. */
export function describeManagementContract(h: () => StoreHarness) {
  describe('users', () => {
    it('creates a user findable by email (any case) and by token digest', async () => {
      const { store } = h()
      const id = randomUUID()
      const digest = uniqueHash()
      const user = await store.createUser({
        id,
        email: `Ada-${id}@Example.com`,
        tokenDigest: digest,
        createdAt: at(5),
      })
      expect(user).toEqual({ id, email: `Ada-${id}@Example.com`, createdAt: at(5) })
      expect(await store.findUserByEmail(`ada-${id}@EXAMPLE.COM`)).toEqual(user)
      expect(await store.findUserByTokenDigest(digest)).toEqual(user)
      expect(await store.hasUsers()).toBe(true)
    })

    it('returns null for an unknown email or token digest', async () => {
      const { store } = h()
      expect(await store.findUserByEmail(`nobody-${randomUUID()}@example.com`)).toBeNull()
      expect(await store.findUserByTokenDigest(uniqueHash())).toBeNull()
    })

    it('rejects an email taken in another case with StoreError conflict, writing nothing', async () => {
      const { store } = h()
      const email = `grace-${randomUUID()}@example.com`
      await store.createUser({
        id: randomUUID(),
        email,
        tokenDigest: uniqueHash(),
        createdAt: at(0),
      })
      const digest = uniqueHash()
      const attempt = store.createUser({
        id: randomUUID(),
        email: email.toUpperCase(),
        tokenDigest: digest,
        createdAt: at(0),
      })
      await expect(attempt).rejects.toSatisfy((e) => isStoreError(e, 'conflict'))
      expect(await store.findUserByTokenDigest(digest)).toBeNull()
    })

    it('adds access tokens, keeping a digest that is already present', async () => {
      const { store } = h()
      const { userId } = await seedProject(store)
      const digest = uniqueHash()
      await store.addUserToken(userId, digest, at(1))
      await store.addUserToken(userId, digest, at(2))
      expect((await store.findUserByTokenDigest(digest))?.id).toBe(userId)
    })
  })

  describe('projects and members', () => {
    it('creates and finds a project; unknown and malformed ids are null', async () => {
      const { store } = h()
      const { userId, projectId } = await seedProject(store)
      expect(await store.findProject(projectId)).toEqual({
        id: projectId,
        name: 'contract',
        integrationKind: 'node',
        status: 'active',
        ownerId: userId,
        createdAt: at(0),
        archivedAt: null,
        rateLimit: null,
        number: expect.any(Number),
        sentryKey: expect.stringMatching(/^[0-9a-f]{32}$/),
      })
      expect(await store.findProject(randomUUID())).toBeNull()
      expect(await store.findProject('not-a-uuid')).toBeNull()
    })

    it("gives each project a number and a DSN key found as a 'sentry' credential, never listed", async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const other = await seedProject(store)
      const project = await store.findProject(projectId)
      const second = await store.findProject(other.projectId)
      expect(project?.number).not.toBe(second?.number)
      expect(project?.sentryKey).not.toBe(second?.sentryKey)
      const digest = createHash('sha256').update(project!.sentryKey!).digest('hex')
      expect(await store.findCredential(digest)).toMatchObject({
        kind: 'sentry',
        projectId,
        projectStatus: 'active',
        revokedAt: null,
        projectNumber: project?.number,
      })
      expect(await store.listApiKeys(projectId)).toEqual([])
      // Archiving revokes it with the project's other credentials.
      await store.setProjectStatus(projectId, 'archived', at(5))
      expect(await store.findCredential(digest)).toMatchObject({ projectStatus: 'archived' })
    })

    it('lists owned and member projects oldest first, every project for null', async () => {
      const { store } = h()
      const owner = await seedProject(store)
      const other = await seedProject(store)
      const second = randomUUID()
      await store.createProject({
        id: second,
        name: 'second',
        integrationKind: 'python',
        ownerId: owner.userId,
        createdAt: at(10),
      })
      expect(await store.addMember(other.projectId, owner.userId, at(11))).toBe(true)
      expect(await store.addMember(other.projectId, owner.userId, at(12))).toBe(false)
      expect(await store.isMember(other.projectId, owner.userId)).toBe(true)
      expect(await store.isMember(owner.projectId, other.userId)).toBe(false)

      const mine = (await store.listProjects(owner.userId)).map((p) => p.id)
      expect(new Set(mine)).toEqual(new Set([owner.projectId, other.projectId, second]))
      expect(mine.indexOf(second)).toBeGreaterThan(mine.indexOf(owner.projectId))
      expect((await store.listProjects(other.userId)).map((p) => p.id)).toEqual([other.projectId])
      const all = await store.listProjects(null)
      expect(all.map((p) => p.id)).toEqual(expect.arrayContaining(mine))
      const times = all.map((p) => p.createdAt.getTime())
      expect(times).toEqual([...times].sort((a, b) => a - b))
    })

    it('lists the owner first, then members in the order they were added', async () => {
      const { store } = h()
      const owner = await seedProject(store)
      const late = await seedProject(store)
      const early = await seedProject(store)
      await store.addMember(owner.projectId, late.userId, at(20))
      await store.addMember(owner.projectId, early.userId, at(15))
      expect(await store.listMembers(owner.projectId)).toEqual([
        {
          userId: owner.userId,
          email: `owner-${owner.userId}@example.com`,
          role: 'owner',
          addedAt: at(0),
        },
        {
          userId: early.userId,
          email: `owner-${early.userId}@example.com`,
          role: 'member',
          addedAt: at(15),
        },
        {
          userId: late.userId,
          email: `owner-${late.userId}@example.com`,
          role: 'member',
          addedAt: at(20),
        },
      ])
      expect((await store.listMembers(late.projectId)).map((m) => m.role)).toEqual(['owner'])
      expect(await store.listMembers(randomUUID())).toEqual([])
      expect(await store.listMembers('not-a-uuid')).toEqual([])
    })
  })

  describe('API keys and credentials', () => {
    it('creates, lists (oldest first) and finds keys by digest', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const [a, b] = [randomUUID(), randomUUID()]
      const digest = uniqueHash()
      const key = { id: a, projectId, name: 'ci', tokenDigest: digest, createdAt: at(1) }
      expect(await store.createApiKey(key)).toEqual({
        id: a,
        projectId,
        name: 'ci',
        createdAt: at(1),
        revokedAt: null,
      })
      await store.createApiKey({
        ...key,
        id: b,
        name: 'web',
        tokenDigest: uniqueHash(),
        createdAt: at(2),
      })
      expect((await store.listApiKeys(projectId)).map((k) => k.name)).toEqual(['ci', 'web'])
      expect(await store.findCredential(digest)).toEqual({
        id: a,
        kind: 'api_key',
        projectId,
        projectStatus: 'active',
        integrationKind: 'node',
        revokedAt: null,
        expiresAt: null,
        binding: null,
        rateLimit: null,
        projectNumber: expect.any(Number),
        dataScrubbing: null,
      })
      expect(await store.findCredential(uniqueHash())).toBeNull()
    })

    it('revokes a key idempotently, only within its project', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const other = await seedProject(store)
      const id = randomUUID()
      const digest = uniqueHash()
      await store.createApiKey({ id, projectId, name: 'k', tokenDigest: digest, createdAt: at(1) })
      expect(await store.revokeApiKey(other.projectId, id, at(2))).toBe(false)
      expect(await store.revokeApiKey(projectId, randomUUID(), at(2))).toBe(false)
      expect(await store.revokeApiKey(projectId, 'not-a-uuid', at(2))).toBe(false)
      expect(await store.revokeApiKey(projectId, id, at(3))).toBe(true)
      expect(await store.revokeApiKey(projectId, id, at(4))).toBe(true)
      expect((await store.findCredential(digest))?.revokedAt).toEqual(at(3))
      expect((await store.listApiKeys(projectId))[0]?.revokedAt).toEqual(at(3))
    })

    it('archiving revokes every active key and mobile token; restoring keeps them revoked', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const [active, revoked, mobile] = [uniqueHash(), uniqueHash(), uniqueHash()]
      const base = { projectId, name: 'k', createdAt: at(1) }
      await store.createApiKey({ ...base, id: randomUUID(), tokenDigest: active })
      const revokedId = randomUUID()
      await store.createApiKey({ ...base, id: revokedId, tokenDigest: revoked })
      await store.revokeApiKey(projectId, revokedId, at(2))
      const parent = await store.createApiKey({
        ...base,
        id: randomUUID(),
        tokenDigest: uniqueHash(),
      })
      await store.createMobileToken({
        ...MOBILE_BINDING,
        id: randomUUID(),
        projectId,
        parentKeyId: parent.id,
        tokenDigest: mobile,
        createdAt: at(1),
        expiresAt: at(3600),
      })

      const archived = await store.setProjectStatus(projectId, 'archived', at(10))
      expect(archived).toMatchObject({ id: projectId, status: 'archived', archivedAt: at(10) })
      for (const digest of [active, mobile]) {
        expect(await store.findCredential(digest)).toMatchObject({
          projectStatus: 'archived',
          revokedAt: at(10),
        })
      }
      expect((await store.findCredential(revoked))?.revokedAt).toEqual(at(2))

      const restored = await store.setProjectStatus(projectId, 'active', at(20))
      expect(restored).toMatchObject({ status: 'active', archivedAt: null })
      expect(await store.findCredential(active)).toMatchObject({
        projectStatus: 'active',
        revokedAt: at(10),
      })
      expect(await store.setProjectStatus(randomUUID(), 'archived', at(30))).toBeNull()
    })

    it("keeps a project's data-scrubbing settings, which its credentials carry", async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const tokenDigest = uniqueHash()
      const key = { projectId, name: 'k', tokenDigest, createdAt: at(1) }
      await store.createApiKey({ ...key, id: randomUUID() })
      expect(await store.getDataScrubbing(projectId)).toBeNull()
      expect(await store.getDataScrubbing(randomUUID())).toBeUndefined()
      expect(await store.getDataScrubbing('not-a-uuid')).toBeUndefined()
      const settings = {
        enabled: false,
        extraFields: ['ssn', 'customer-note'],
        safeFields: ['session'],
        scrubIpAddresses: true,
      }
      expect(await store.setDataScrubbing(projectId, settings)).toBe(true)
      expect(await store.setDataScrubbing(randomUUID(), settings)).toBe(false)
      expect(await store.getDataScrubbing(projectId)).toEqual(settings)
      expect((await store.findCredential(tokenDigest))?.dataScrubbing).toEqual(settings)
    })
  })
}
