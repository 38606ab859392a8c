import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

/** A relative import that leaves the package of the file that holds it. */
export interface CrossingImport {
  /** The importing file, relative to the workspace root. */
  readonly file: string
  /** The specifier as written, e.g. `../../ingest/src/index.ts`. */
  readonly specifier: string
  /** The importing file's package directory, relative to the workspace root. */
  readonly packageDir: string
}

/** Files the check reads: sources, tests, benches and configs in any of these languages. */
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/
/** Directories that hold no sources of the package itself. */
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.turbo'])

/**
 * The specifiers `text` imports: static imports and re-exports, side-effect imports, `import()`,
 * `require()` and triple-slash path references; comments and strings that are not imports
 * do not count.
 */
export function importSpecifiers(text: string): string[] {
  const info = ts.preProcessFile(text, true, true)
  return [...info.importedFiles, ...info.referencedFiles].map((f) => f.fileName)
}

/**
 * The relative imports of one file (`file`, absolute, inside `packageDir`) that resolve outside
 * `packageDir`. `root` only shortens the paths in the result.
 */
export function crossingImports(
  root: string,
  packageDir: string,
  file: string,
  text: string,
): CrossingImport[] {
  const inside = (path: string) => path === packageDir || path.startsWith(`${packageDir}${sep}`)
  return importSpecifiers(text)
    .filter((s) => s.startsWith('../') || s === '..')
    .filter((s) => !inside(resolve(dirname(file), s)))
    .map((specifier) => ({
      file: relative(root, file),
      specifier,
      packageDir: relative(root, packageDir),
    }))
}

/** The workspace root: the nearest directory from `from` upwards with a `pnpm-workspace.yaml`. */
export function findWorkspaceRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir
    if (dirname(dir) === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`)
  }
}

/** The package directories `pnpm-workspace.yaml` lists (`dir/*` patterns and plain paths). */
export function workspacePackages(root: string): string[] {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')
  const block = /^packages:\s*\n((?:[ \t]+-.*\n?)+)/m.exec(yaml)?.[1] ?? ''
  const patterns = [...block.matchAll(/-\s*['"]?([^'"\n]+?)['"]?\s*$/gm)].map((m) => m[1]!)
  return patterns.flatMap((pattern) => {
    const dirs = pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => join(root, pattern.slice(0, -2), d.name))
      : [join(root, pattern)]
    return dirs.filter((d) => existsSync(join(d, 'package.json')))
  })
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* sourceFiles(path)
    else if (SOURCE.test(entry.name)) yield path
  }
}

/**
 * Every relative import in the workspace's packages (sources, tests, benches, scripts and
 * configs) that leaves the importing file's package: another package must be imported by
 * its name, through what it exports.
 */
export function findCrossingImports(root: string): CrossingImport[] {
  return workspacePackages(root).flatMap((packageDir) =>
    [...sourceFiles(packageDir)].flatMap((file) =>
      crossingImports(root, packageDir, file, readFileSync(file, 'utf8')),
    ),
  )
}
