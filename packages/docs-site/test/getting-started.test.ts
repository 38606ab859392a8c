import { spawn, spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { startTisServer, type TisServer } from '@tis/test-utils/tis-server'
import { Marked, type Tokens } from 'marked'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// Runs docs/getting-started.md against a real server (the reference server from source on a free
// port, PGlite in a temp dir, started by test-utils' startTisServer): every ```bash/```sh and
// ```js/```ts block, in order, in one shell session whose exported variables carry over from
// block to block. Two info-string words change that:
// - ```bash server  — starts the server itself: skipped, this test started one.
// - ```bash placeholders — exports values the reader pastes: replaced by the real ones
//   (TIS_URL and TIS_TOKEN of the server above); the test fails if it exports anything else.
// JavaScript blocks run as `first-event.mjs` in a scratch directory whose node_modules/@tis/sdk
// links to packages/sdk (loaded from source, as if installed). Needs curl: without it the test
// is skipped with a message saying so.

const REPO = fileURLToPath(new URL('../../..', import.meta.url))
const GUIDE = join(REPO, 'docs', 'getting-started.md')
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const HAS_CURL = spawnSync('curl', ['--version']).status === 0
const PLACEHOLDERS = ['TIS_URL', 'TIS_TOKEN']

interface Block {
  readonly language: string
  readonly mark: string
  readonly code: string
}

async function codeBlocks(): Promise<Block[]> {
  const tokens = new Marked().lexer(await readFile(GUIDE, 'utf8'))
  const blocks: Block[] = []
  const visit = (list: readonly unknown[]) => {
    for (const token of list as Tokens.Generic[]) {
      if (token.type === 'code') {
        const [language = '', mark = ''] = ((token as Tokens.Code).lang ?? '').split(/\s+/)
        blocks.push({ language, mark, code: (token as Tokens.Code).text })
      }
      if (Array.isArray(token.tokens)) visit(token.tokens)
      if (Array.isArray(token['items'])) visit(token['items'] as unknown[])
    }
  }
  visit(tokens)
  return blocks
}

function run(command: string, args: string[], cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: cwd },
      timeout: 60_000,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
    })
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
    })
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe.skipIf(!HAS_CURL)('docs/getting-started.md', () => {
  let server: TisServer
  let dir: string

  beforeAll(async () => {
    ;[server, dir] = await Promise.all([
      startTisServer(),
      mkdtemp(join(tmpdir(), 'getting-started-')),
    ])
    await mkdir(join(dir, 'node_modules', '@tis'), { recursive: true })
    await symlink(join(REPO, 'packages', 'sdk'), join(dir, 'node_modules', '@tis', 'sdk'), 'dir')
  }, 90_000)
  afterAll(async () => {
    await server?.stop()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('every command works, in order, and the events arrive', async () => {
    const blocks = await codeBlocks()
    const state = join(dir, 'state.sh')
    await writeFile(state, '')
    const outputs: string[] = []
    let ran = 0
    for (const [index, block] of blocks.entries()) {
      const where = `block ${index + 1} (\`\`\`${block.language} ${block.mark})`
      if (block.mark === 'server') continue
      let result: Awaited<ReturnType<typeof run>>
      if (block.mark === 'placeholders') {
        const exported = [...block.code.matchAll(/^export (\w+)=/gm)].map((m) => m[1])
        expect(exported, `${where} may only set ${PLACEHOLDERS.join(', ')}`).toEqual(PLACEHOLDERS)
        const real = `export TIS_URL='${server.url}'\nexport TIS_TOKEN='${server.adminToken}'\n`
        await writeFile(state, real)
        continue
      }
      if (block.language === 'bash' || block.language === 'sh') {
        const script = `set -euo pipefail\nsource ${state}\n${block.code}\nexport -p > ${state}\n`
        result = await run('bash', ['-c', script], dir)
      } else if (block.language === 'js' || block.language === 'ts') {
        const file = join(dir, `first-event.${block.language === 'ts' ? 'mts' : 'mjs'}`)
        await writeFile(file, block.code)
        const node = `${process.execPath} --conditions=@tis/source --import ${TSX} ${file}`
        result = await run('bash', ['-c', `set -euo pipefail\nsource ${state}\nexec ${node}`], dir)
      } else {
        continue
      }
      ran++
      expect(
        result.code,
        `${where} failed:\n${block.code}\n${result.stdout}\n${result.stderr}`,
      ).toBe(0)
      outputs.push(result.stdout)
    }
    expect(ran).toBeGreaterThanOrEqual(5)

    // What the guide says the commands print.
    const all = outputs.join('\n')
    expect(all).toMatch(/project: [0-9a-f-]{36}/)
    expect(all).toContain('sent 3, dropped {}')
    // The curl event, then the SDK's message and exception, read back as the guide does.
    const projectId = all.match(/project: ([0-9a-f-]{36})/)?.[1]
    const events = await server.read(`/api/v1/projects/${projectId}/events?limit=10`)
    const messages = (events.events as { message?: string }[]).map((e) => e.message)
    expect(messages).toContain('Hello from tis')
    expect(messages).toContain('Hello from the SDK')
    expect(events.events).toHaveLength(3)
    // The last block's read API answer showed them too.
    expect(outputs.at(-1)).toContain('Hello from tis')
  }, 120_000)
})

if (!HAS_CURL) {
  describe('docs/getting-started.md', () => {
    it.skip('needs curl on the PATH to run the guide’s commands (curl not found)', () => {})
  })
}
