import { describe, expect, it } from 'vitest'
import type { DeploymentRecord } from '../ports'
import { resolveCommit } from './commit'
import { cutExcerpt, MAX_LINE_CHARS } from './excerpt'

const file = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n')

describe('cutExcerpt', () => {
  it('cuts the line and N lines either side', () => {
    expect(cutExcerpt(file, 10, 2)).toEqual([
      { number: 8, text: 'line 8' },
      { number: 9, text: 'line 9' },
      { number: 10, text: 'line 10' },
      { number: 11, text: 'line 11' },
      { number: 12, text: 'line 12' },
    ])
  })

  it('clamps at the start and the end of the file', () => {
    expect(cutExcerpt(file, 1, 2)?.map((l) => l.number)).toEqual([1, 2, 3])
    expect(cutExcerpt(`${file}\n`, 20, 2)?.map((l) => l.number)).toEqual([18, 19, 20])
  })

  it('shows only the line with 0 context lines, whatever the line endings', () => {
    expect(cutExcerpt('a\r\nb\r\nc', 2, 0)).toEqual([{ number: 2, text: 'b' }])
  })

  it('answers null for a line the file does not have', () => {
    expect(cutExcerpt(file, 21, 5)).toBeNull()
    expect(cutExcerpt(`${file}\n`, 21, 5)).toBeNull()
    expect(cutExcerpt(file, 0, 5)).toBeNull()
  })

  it('cuts long (minified) lines', () => {
    const [line] = cutExcerpt('x'.repeat(50_000), 1, 0)!
    expect(line!.text).toHaveLength(MAX_LINE_CHARS)
  })
})

const deployment = (repository: string, commitSha: string) =>
  ({ repository, commitSha }) as DeploymentRecord

describe('resolveCommit', () => {
  const sha = 'ABCDEF1234567890abcdef1234567890abcdef12'
  it('takes the event commit and repository first (top level, then context)', () => {
    const expected = { repository: 'o/r', commitSha: sha.toLowerCase(), from: 'event' }
    expect(
      resolveCommit({ commit_sha: sha, repository: 'o/r' }, deployment('o/x', 'aaaaaaa')),
    ).toEqual(expected)
    expect(resolveCommit({ context: { commit_sha: sha, repository: 'o/r' } }, null)).toEqual(
      expected,
    )
  })

  it('takes the repository of the deployment for an event naming only a commit', () => {
    expect(resolveCommit({ commit_sha: sha }, deployment('o/d', 'bbbbbbb'))).toEqual({
      repository: 'o/d',
      commitSha: sha.toLowerCase(),
      from: 'event',
    })
  })

  it('falls back to the deployment', () => {
    expect(resolveCommit({ repository: 'o/r' }, deployment('o/r', 'BBBBBBB'))).toEqual({
      repository: 'o/r',
      commitSha: 'bbbbbbb',
      from: 'deployment',
    })
  })

  it('ignores a malformed event commit', () => {
    expect(resolveCommit({ commit_sha: 'main', repository: 'o/r' }, null)).toBeNull()
  })

  it('is null without a commit and a deployment', () => {
    expect(resolveCommit({ repository: 'o/r' }, null)).toBeNull()
  })
})
