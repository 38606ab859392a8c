import { close, fsync, open, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

const openFile = promisify(open)
const fsyncFile = promisify(fsync)
const closeFile = promisify(close)

/**
 * Flushes in flight at once. Many at a time let the filesystem commit its journal once for
 * several of them: a copied 40 MB data directory took 0.5 s instead of 3.6 s one by one.
 */
const CONCURRENCY = 16

/**
 * Flushes every file and directory under `root` to the disk (`fsync(2)` each; a directory after
 * its entries), then `root`'s own entry in its parent directory, and resolves the number of files
 * and directories under `root` (itself included). Files written before durability was on
 * (PGlite's initdb, a run with sync off, a copied directory) are then on the disk too, not only
 * what PostgreSQL writes from now on.
 */
export async function fsyncTree(root: string): Promise<number> {
  const files: string[] = []
  const directories: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) files.push(path)
    }
    directories.push(dir)
  }
  walk(root)
  await flushAll(files)
  // A directory's flush makes the names of its new entries durable.
  await flushAll(directories)
  await fsyncPath(dirname(root))
  return files.length + directories.length
}

async function flushAll(paths: readonly string[]): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < paths.length) await fsyncPath(paths[next++]!)
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
}

async function fsyncPath(path: string): Promise<void> {
  const fd = await openFile(path, 'r')
  try {
    await fsyncFile(fd)
  } finally {
    await closeFile(fd)
  }
}
