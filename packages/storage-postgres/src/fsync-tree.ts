import { closeSync, fsyncSync, openSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * Flushes every file and directory under `root` to the disk (`fsync(2)` each), then `root`'s own
 * entry in its parent directory, and returns the number of files and directories under `root`
 * (itself included) it flushed. Files written before durability was on (PGlite's initdb, a run
 * with sync off, a copied directory) are then on the disk too, not only what PostgreSQL writes
 * from now on. Synchronous: it runs once, while the database opens.
 */
export function fsyncTree(root: string): number {
  let flushed = 0
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) {
        fsyncPath(path)
        flushed += 1
      }
    }
    // After its entries: a directory's own flush makes the names of its new files durable.
    fsyncPath(dir)
    flushed += 1
  }
  walk(root)
  fsyncPath(dirname(root))
  return flushed
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
