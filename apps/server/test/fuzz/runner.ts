import { ADMIN_TOKEN } from '@tis/test-utils/server'
import { bodyRuleProblems } from './body-oracle'
import { storedInvariantProblems } from './invariants'
import { knownBug } from './known-bugs'
import {
  type Baseline,
  countProblems,
  createLedger,
  type Ledger,
  readBaseline,
  record,
  verifyLedger,
} from './ledger'
import { buildRequest, type RequestPlan } from './requests'
import type { FuzzServer } from './server'
import { replyProblems } from './shapes'

/** Checks cases against one server and keeps its ledger. */
export interface FuzzRun {
  /** Sends one case; throws with the request and reply on any violation of the spec. */
  check(plan: RequestPlan): Promise<void>
  /** Compares the ledger with the database and checks the stored rows' rules; the problems found. */
  verify(): Promise<string[]>
  /** Cases answered 500 by a known, still open bug, by bug. */
  readonly tally: Map<string, number>
  /** Answers by endpoint and status (`ingestEvent 201`), to see what the generators reach. */
  readonly statuses: Map<string, number>
  readonly ledger: Ledger
}

/** A run against `fuzz`, its baseline read now (after the fixture, before any case). */
export async function createFuzzRun(fuzz: FuzzServer): Promise<FuzzRun> {
  const ledger = createLedger()
  const base: Baseline = await readBaseline(fuzz)
  const seeded = new Set(await storedInvariantProblems(fuzz, undefined, Number.POSITIVE_INFINITY))
  const tally = new Map<string, number>()
  const statuses = new Map<string, number>()
  return {
    tally,
    statuses,
    ledger,
    verify: async () => [
      ...(await verifyLedger(fuzz, ledger, base)),
      ...(await storedInvariantProblems(fuzz, seeded)),
    ],
    async check(plan) {
      const { request, markers } = buildRequest(plan, fuzz.fixture, ADMIN_TOKEN)
      const reply = await fuzz.send(request)
      const key = `${plan.endpoint} ${reply.status}`
      statuses.set(key, (statuses.get(key) ?? 0) + 1)
      const bug = knownBug(request, reply)
      const problems: string[] = []
      if (bug !== undefined) {
        tally.set(bug.id, (tally.get(bug.id) ?? 0) + 1)
        for (const m of markers.flat()) ledger.refused.add(m)
        // A failed write must still store nothing (batch: all or none).
        if (request.method !== 'GET') problems.push(...(await countProblems(fuzz, ledger, base)))
      } else {
        problems.push(
          ...replyProblems(plan.endpoint, reply),
          ...bodyRuleProblems(plan.endpoint, request, reply),
          ...record(ledger, plan.endpoint, reply, markers),
        )
        if (plan.mustAccept && ![200, 201, 429].includes(reply.status)) {
          problems.push(`a body valid under every rule was answered ${reply.status}`)
        }
      }
      if (problems.length === 0) return
      const body = typeof request.body === 'string' ? request.body.slice(0, 2000) : request.body
      throw new Error(
        `${problems.join('; ')}\nrequest: ${request.method} ${request.path} ${JSON.stringify(request.headers)} ${JSON.stringify(body)}\nreply: ${reply.status} ${reply.text.slice(0, 2000)}`,
      )
    },
  }
}
