import { fsyncSync } from 'node:fs'
import type { PGliteOptions } from '@electric-sql/pglite'
import type { NodeFS } from '@electric-sql/pglite/nodefs'

/**
 * How an embedded PGlite database on a directory gets its files to the disk.
 *
 * - `off`: PGlite's own behaviour. It runs PostgreSQL with `fsync=off`, and its Node filesystem
 *   has no `fsync` at all, so nothing is ever flushed: a killed process loses nothing (the
 *   operating system holds the writes), an operating-system crash or power loss can lose
 *   committed transactions or leave the data directory unreadable.
 * - `commit`: PostgreSQL's `fsync=on` with its calls reaching `fsync(2)`: every commit is on the
 *   disk before it is acknowledged, checkpoints flush the data files, exactly as on PostgreSQL.
 */
export type PgliteSync = 'off' | 'commit'

/** Every {@link PgliteSync} mode, for configuration parsers. */
export const PGLITE_SYNC_MODES = ['off', 'commit'] as const satisfies readonly PgliteSync[]

/**
 * PostgreSQL settings of the `commit` mode, appended to PGlite's start parameters (a later `-c`
 * wins over PGlite's `-F`). `wal_sync_method=fsync` because PGlite's runtime answers
 * `fdatasync()` with success without doing anything; only `fsync()` reaches the filesystem.
 */
const COMMIT_SETTINGS = ['-c', 'fsync=on', '-c', 'wal_sync_method=fsync'] as const

type EmscriptenModule = Parameters<NodeFS['init']>[1]
interface NodeFsStream {
  readonly nfd: number
}
interface NodeFsInternals {
  readonly stream_ops: { fsync?: (stream: NodeFsStream) => void }
  tryFSOperation<T>(operation: () => T): T
}

/**
 * The PGlite options of the `commit` mode, for a PGlite you create yourself (e.g. for
 * `createPgliteStore`): `dataDir` opened with every `fsync()` PostgreSQL makes reaching the
 * disk — PGlite's Node filesystem, whose files gain the `fsync` Emscripten's leave out, and
 * PostgreSQL's `fsync=on`. Files already in the directory are not flushed by this;
 * `openPgliteStore` does that when it opens.
 *
 * @example
 * ```ts
 * const db = await PGlite.create({ ...(await pgliteCommitSyncOptions('./data')) })
 * ```
 */
export async function pgliteCommitSyncOptions(
  dataDir: string,
): Promise<Required<Pick<PGliteOptions, 'fs' | 'startParams'>>> {
  // Loaded here: PGlite is an optional peer of this package.
  const [{ PGlite }, { NodeFS }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/nodefs'),
  ])
  class SyncingNodeFS extends NodeFS {
    override async init(pg: Parameters<NodeFS['init']>[0], options: EmscriptenModule) {
      const { emscriptenOpts } = await super.init(pg, options)
      const addFsync = (mod: { NODEFS: unknown }) => {
        const nodefs = mod.NODEFS as NodeFsInternals
        // Every file of the mount shares this object; a failure becomes PostgreSQL's EIO.
        nodefs.stream_ops.fsync = (stream) => nodefs.tryFSOperation(() => fsyncSync(stream.nfd))
      }
      return {
        emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), addFsync] },
      }
    }
  }
  return {
    fs: new SyncingNodeFS(dataDir),
    startParams: [...PGlite.defaultStartParams, ...COMMIT_SETTINGS],
  }
}
