import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { crossingImports, findCrossingImports, findWorkspaceRoot } from './relative-imports'

const ROOT = '/repo'
const SDK = join(ROOT, 'packages/sdk')
const check = (file: string, text: string) =>
  crossingImports(ROOT, SDK, join(SDK, file), text).map((c) => c.specifier)

describe('the relative-import boundary check', () => {
  it('catches every kind of relative import that leaves the package', () => {
    const text = [
      `/// <reference path="../../tsconfig/env.d.ts" />`,
      `import { createClient } from '../../../apps/server/test/support/client'`,
      `import type { IngestStore } from '../../ingest/src/index.ts'`,
      `export { x } from '../../console/src/index'`,
      `import '../../browser/src/register'`,
      `const lazy = await import('../../express/src/index')`,
      `const cjs = require('../../schema/src/index')`,
    ].join('\n')
    expect(check('test/e2e.test.ts', text)).toEqual([
      '../../../apps/server/test/support/client',
      '../../ingest/src/index.ts',
      '../../console/src/index',
      '../../browser/src/register',
      '../../express/src/index',
      '../../schema/src/index',
      '../../tsconfig/env.d.ts',
    ])
  })

  it('names the file and its package', () => {
    expect(crossingImports(ROOT, SDK, join(SDK, 'bench/size.ts'), `import '../../ingest'`)).toEqual(
      [
        {
          file: 'packages/sdk/bench/size.ts',
          specifier: '../../ingest',
          packageDir: 'packages/sdk',
        },
      ],
    )
  })

  it('allows relative imports inside the package, package names, and imports only in comments or strings', () => {
    const text = [
      `import { createClient } from '../src/index'`,
      `import { fixture } from '../../test/fixtures/one'`,
      `import { ADMIN_TOKEN } from '@tis/test-utils/server'`,
      `// import { x } from '../../../apps/server/src/app'`,
      `const path = '../../ingest/src/index.ts'`,
    ].join('\n')
    expect(check('test/deep/e2e.test.ts', text)).toEqual([])
  })

  it('a path that only starts like the package directory is outside it', () => {
    expect(check('src/index.ts', `import '../../sdk-extra/src/index'`)).toEqual([
      '../../sdk-extra/src/index',
    ])
  })

  it('finds none in the workspace: packages import each other by name', () => {
    const root = findWorkspaceRoot(fileURLToPath(new URL('.', import.meta.url)))
    const found = findCrossingImports(root).map((c) => `${c.file} imports '${c.specifier}'`)
    expect(found, 'import these through the package name and its exports').toEqual([])
  })
})
