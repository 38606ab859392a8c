// The shapes of the answers of the read and management APIs (issue 20): one zod schema per
// answer, from which the OpenAPI document, the serialisers' types and the dashboard's types come.
export * from './common'
export * from './operations'
