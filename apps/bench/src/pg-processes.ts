import { readFileSync } from 'node:fs'
import { cpuSeconds, withChildren } from './cpu'

// PostgreSQL's processor time by kind of process (backends, autovacuum, checkpointer, WAL
// writer, …), from /proc: where the database's share of a record goes besides the statements.
// Workers that start and exit between two looks (autovacuum's) are counted through the
// postmaster's reaped-children times.

const TICKS_PER_SECOND = 100

/** The kind of a PostgreSQL process, from its title (`postgres: autovacuum worker`, …). */
function kindOf(pid: number): string {
  let title = ''
  try {
    title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\u0000', ' ')
  } catch {
    return 'gone'
  }
  for (const kind of [
    'autovacuum',
    'checkpointer',
    'walwriter',
    'background writer',
    'io worker',
  ]) {
    if (title.includes(kind)) return kind
  }
  return /postgres: \S+ \S+ [\d.]+\(\d+\)/.test(title) ? 'backends' : 'postmaster and others'
}

/** Seconds the postmaster's exited (reaped) children used, in all. */
function reapedSeconds(postmaster: number): number {
  try {
    const stat = readFileSync(`/proc/${postmaster}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // cutime and cstime: fields 16 and 17 of stat, 13 and 14 after the name and state.
    return (Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND
  } catch {
    return 0
  }
}

/** Processor seconds by kind of process between `start()` and `stop()`. */
export function postgresBreakdown(postmaster: number) {
  let before = new Map<number, number>()
  let reapedBefore = 0
  return {
    start() {
      before = new Map(withChildren(postmaster).map((pid) => [pid, cpuSeconds(pid)]))
      reapedBefore = reapedSeconds(postmaster)
    },
    stop(): Record<string, number> {
      const used: Record<string, number> = {}
      const add = (kind: string, s: number) => {
        used[kind] = Math.round(((used[kind] ?? 0) + s) * 100) / 100
      }
      for (const pid of withChildren(postmaster)) {
        add(kindOf(pid), cpuSeconds(pid) - (before.get(pid) ?? 0))
      }
      add('exited workers (autovacuum, …)', reapedSeconds(postmaster) - reapedBefore)
      return used
    },
  }
}
