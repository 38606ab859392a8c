// Processor time of processes, from /proc (Linux): a cost per request that is steadier than a
// rate on a shared machine, where other work changes the rate by the minute but not what one
// request costs.
import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100

/** Fields of /proc/<pid>/stat after the command name, or `null` when it is gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return null
  }
}

/** Whether `pid` is a process of this machine named `name` (a pid from elsewhere may not be). */
export function isNamed(pid: number, name: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name
  } catch {
    return false
  }
}

/** The parent process of `pid`; `null` when it cannot be read (another machine, gone). */
export function parentOf(pid: number): number | null {
  const f = statFields(pid)
  return f ? Number(f[1]) : null
}

/** User plus system processor seconds a process has used so far; 0 when it is gone. */
export function cpuSeconds(pid: number): number {
  const f = statFields(pid)
  // utime and stime are fields 14 and 15 of stat: 11 and 12 after the name and state.
  return f ? (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND : 0
}

/** `pid` and every process whose parent is `pid` (a PostgreSQL postmaster and its backends). */
export function withChildren(pid: number): number[] {
  const children: number[] = []
  let entries: string[] = []
  try {
    entries = readdirSync('/proc')
  } catch {
    return [pid]
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const f = statFields(Number(entry))
    if (f && Number(f[1]) === pid) children.push(Number(entry))
  }
  return [pid, ...children]
}

/** Processor seconds used by a set of processes between `start()` and `stop()`. */
export interface CpuMeter {
  start(): void
  /** Seconds used since `start()`; processes that ended meanwhile count up to their last look. */
  stop(): number
}

/** A meter over the processes `pids()` names at `start()` (and any it names at `stop()`). */
export function cpuMeter(pids: () => readonly number[]): CpuMeter {
  let before = new Map<number, number>()
  return {
    start() {
      before = new Map(pids().map((pid) => [pid, cpuSeconds(pid)]))
    },
    stop() {
      let used = 0
      for (const pid of new Set([...before.keys(), ...pids()])) {
        const now = cpuSeconds(pid)
        if (now > 0) used += now - (before.get(pid) ?? 0)
      }
      return used
    },
  }
}

/** Microseconds per request of `seconds` of processor time over `requests`. */
export const microsPerRequest = (seconds: number, requests: number) =>
  requests > 0 ? Math.round((seconds * 1e6) / requests) : Number.NaN
