import { describe, expect, it } from 'vitest'
import { containsRun, splitWords } from './words'

describe('splitWords', () => {
  it.each([
    ['db_password', ['db', 'password']],
    ['dbPassword', ['db', 'password']],
    ['XApiKey', ['x', 'api', 'key']],
    ['X-Api-Key', ['x', 'api', 'key']],
    ['HTTP_AUTHORIZATION', ['http', 'authorization']],
    ['APIKey', ['api', 'key']],
    ['api.key', ['api', 'key']],
    ['api key', ['api', 'key']],
    ['apikey', ['apikey']],
    ['set-cookie', ['set', 'cookie']],
    ['oauth2Token', ['oauth2', 'token']],
    ['user[password]', ['user', 'password']],
    ['__private__key__', ['private', 'key']],
    ['sessionId', ['session', 'id']],
    ['', []],
    ['--', []],
  ])('%j → %j', (key, words) => {
    expect(splitWords(key)).toEqual(words)
  })
})

describe('containsRun', () => {
  it.each([
    [['stripe', 'api', 'key'], ['api', 'key'], true],
    [['api', 'keys'], ['api', 'key'], true],
    [['cookies'], ['cookie'], true],
    [['api', 'x', 'key'], ['api', 'key'], false],
    [['key', 'api'], ['api', 'key'], false],
    [['tokenizer'], ['token'], false],
    [['tokenss'], ['token'], false],
    [['api'], ['api', 'key'], false],
    [['anything'], [], false],
  ])('%j contains %j: %s', (words, name, expected) => {
    expect(containsRun(words, name)).toBe(expected)
  })
})
