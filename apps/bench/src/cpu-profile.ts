import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

// A Node CPU profile (`node --cpu-prof`) reduced to where the time went: self time by function
// and by package, for the pace bench's report (docs/performance.md).

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** One line of a profile summary. */
export interface ProfileLine {
  readonly where: string
  readonly 'self ms': number
  readonly '%': number
}

/** The package or area a script URL belongs to: `@tis/ingest`, `hono`, `node:`, … */
function areaOf(url: string): string {
  if (url === '') return '(native / GC)'
  if (url.startsWith('node:')) return 'node: internals'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)/.exec(url)
  if (pkg) return pkg[1]!
  const own = /\/(packages|apps)\/([^/]+)\//.exec(url)
  return own ? `@tis/${own[2]}` : url.replace(/^.*\//, '')
}

/** Self time of every sample, by the key `keyOf` gives its node. */
function selfTimes(profile: Profile, keyOf: (node: ProfileNode) => string): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const times = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)
    if (!node) return
    const key = keyOf(node)
    times.set(key, (times.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0))
  })
  return times
}

const top = (times: Map<string, number>, limit: number): ProfileLine[] => {
  const total = [...times.values()].reduce((a, b) => a + b, 0) || 1
  return [...times.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([where, us]) => ({
      where,
      'self ms': Math.round(us / 1000),
      '%': Math.round((us / total) * 1000) / 10,
    }))
}

/** The newest profile in `dir`, summarised by package and by function. */
export function summariseProfile(
  dir: string,
  limit = 15,
): { byArea: ProfileLine[]; byFunction: ProfileLine[] } | null {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
  const file = files.at(-1)
  if (!file) return null
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile
  const idle = (n: ProfileNode) => ['(idle)', '(program)'].includes(n.callFrame.functionName)
  return {
    byArea: top(
      selfTimes(profile, (n) => (idle(n) ? n.callFrame.functionName : areaOf(n.callFrame.url))),
      limit,
    ),
    byFunction: top(
      selfTimes(profile, (n) => {
        const { functionName, url, lineNumber } = n.callFrame
        if (idle(n)) return functionName
        return `${functionName || '(anonymous)'} ${areaOf(url)}:${url.replace(/^.*\//, '')}:${lineNumber + 1}`
      }),
      limit,
    ),
  }
}
