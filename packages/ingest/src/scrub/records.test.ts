import { describe, expect, it } from 'vitest'
import { createScrubber, SCRUBBER_CACHE_LIMIT, scrubberFor, settingsKey } from './scrub'
import { DEFAULT_SCRUB_SETTINGS, type ScrubSettings } from './settings'

const settings = (overrides: Partial<ScrubSettings> = {}): ScrubSettings => ({
  ...DEFAULT_SCRUB_SETTINGS,
  ...overrides,
})

describe('check-ins', () => {
  it('keeps the documented fields and scrubs the rest', () => {
    const checkIn = {
      slug: 'nightly-token-rotation',
      status: 'ok',
      environment: 'production',
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      expected_interval_seconds: 300,
      contexts: { monitor: { api_key: 'k', schedule: '0 3 * * *' } },
      password: 'p',
    }
    const { value, report } = createScrubber(settings({ extraFields: ['slug'] })).checkIn(checkIn)
    expect(value).toEqual({
      ...checkIn,
      contexts: { monitor: { api_key: '[Filtered]', schedule: '0 3 * * *' } },
      password: '[Filtered]',
    })
    expect(report).toEqual({ filtered: 2, rules: { sensitive_key: 2 } })
  })
})

describe('deployments', () => {
  const deployment = {
    release: 'api@1.0.0',
    environment: 'production',
    repository: 'acme/api',
    commit_sha: '9f2c4e1a7b3d5f60718293a4b5c6d7e8f9a0b1c2',
    workflow_run_url: 'https://ci:s3cr3t@github.com/acme/api/actions/runs/1?token=t',
    release_tag: 'v1.0.0',
    github: { token: 'ghs_x', actor: 'ann', event: { head_commit: { author: 'ann' } } },
  }

  it('walks the free github object and scans the links', () => {
    const { value, report } = createScrubber(DEFAULT_SCRUB_SETTINGS).deployment(deployment)
    expect(value).toEqual({
      ...deployment,
      workflow_run_url: 'https://ci:[Filtered]@github.com/acme/api/actions/runs/1?token=[Filtered]',
      github: { ...deployment.github, token: '[Filtered]' },
    })
    expect(report).toEqual({ filtered: 3, rules: { url_password: 1, sensitive_key: 2 } })
  })

  it('never filters a documented field by name', () => {
    const clean = { release: 'r', release_tag: 'v1', repository: 'acme/api' }
    const scrubber = createScrubber(settings({ extraFields: ['release_tag', 'repository'] }))
    expect(scrubber.deployment(clean).value).toBe(clean)
  })
})

describe('enabled: false', () => {
  const scrubber = createScrubber(settings({ enabled: false, scrubIpAddresses: true }))
  const event = {
    message: 'card 4111 1111 1111 1111',
    user_id: '10.0.0.1',
    password: 'p',
    context: { data_scrubbing: {}, ip: '10.0.0.1' },
  }
  const checkIn = { slug: 's', password: 'p' }
  const deployment = { release: 'r', github: { token: 't' } }

  it.each([
    ['event', scrubber.event(event), event],
    ['checkIn', scrubber.checkIn(checkIn), checkIn],
    ['deployment', scrubber.deployment(deployment), deployment],
    ['event via scrubberFor', scrubberFor(settings({ enabled: false })).event(event), event],
  ])('%s: the input itself and an empty report', (_, result, input) => {
    expect(result.value).toBe(input)
    expect(result.report).toEqual({ filtered: 0, rules: {} })
  })
})

describe('scrubberFor', () => {
  it('shares one scrubber between equal settings', () => {
    const a = scrubberFor(settings({ extraFields: ['ssn', 'pin'], safeFields: ['Order'] }))
    const b = scrubberFor(settings({ safeFields: ['order'], extraFields: ['PIN', 'ssn'] }))
    expect(b).toBe(a)
    expect(scrubberFor(settings({ extraFields: ['ssn'] }))).not.toBe(a)
    expect(scrubberFor(settings({ scrubIpAddresses: true }))).not.toBe(scrubberFor(settings()))
  })

  it('scrubs with its settings', () => {
    const { value } = scrubberFor(settings({ extraFields: ['pin'] })).event({ context: { pin: 1 } })
    expect(value).toEqual({ context: { pin: '[Filtered]' } })
  })

  it(`keeps at most ${SCRUBBER_CACHE_LIMIT} scrubbers, dropping the oldest`, () => {
    const nth = (i: number) => settings({ extraFields: [`cache_test_${i}`] })
    const first = scrubberFor(nth(0))
    expect(scrubberFor(nth(0))).toBe(first)
    for (let i = 1; i <= SCRUBBER_CACHE_LIMIT; i++) scrubberFor(nth(i))
    expect(scrubberFor(nth(0))).not.toBe(first)
  })

  it('serialises settings stably', () => {
    const a = settingsKey(settings({ extraFields: ['b', 'A'] }))
    expect(
      settingsKey({
        scrubIpAddresses: false,
        safeFields: [],
        extraFields: ['a', 'B'],
        enabled: true,
      }),
    ).toBe(a)
  })
})
