import { describe, expect, it } from 'vitest'
import { sourceSettingsBody } from './source-settings'

// The settings form → the `PUT …/source_settings` body: one row per rule of the form.
describe('sourceSettingsBody', () => {
  const full = { path_prefix: '', context_lines: '', github_api_url: '' }
  const cleared = { path_prefix: null, context_lines: null, github_api_url: null }
  it.each([
    ['an empty token field keeps the token', { ...full, github_token: '' }, cleared],
    [
      'a token (trimmed) replaces it',
      { ...full, github_token: '  ghp_x \n' },
      { github_token: 'ghp_x', ...cleared },
    ],
    [
      '"remove" with an empty field clears it',
      { ...full, github_token: '', clear_token: '1' },
      { github_token: null, ...cleared },
    ],
    [
      'a new token wins over "remove"',
      { ...full, github_token: 'ghp_y', clear_token: '1' },
      { github_token: 'ghp_y', ...cleared },
    ],
    [
      'values are sent trimmed; digits as a number',
      { path_prefix: ' /app ', context_lines: ' 7 ', github_api_url: 'https://ghe.test/api/v3' },
      { path_prefix: '/app', context_lines: 7, github_api_url: 'https://ghe.test/api/v3' },
    ],
    [
      'a non-number context_lines is sent as typed, for the engine to refuse',
      { context_lines: '-1' },
      { context_lines: '-1' },
    ],
    ['a field absent from the form is kept', {}, {}],
  ])('%s', (_rule, form, body) => {
    expect(sourceSettingsBody(form)).toEqual(body)
  })
})
