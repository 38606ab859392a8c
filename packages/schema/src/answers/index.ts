// The shapes of the answers of the read and management APIs (issue 20): one zod schema per
// answer, from which the OpenAPI document, the serialisers' types and the dashboard's types come.

export * from './account-answers'
export * from './account-openapi'
export * from './batch-answers'
export * from './batch-openapi'
export * from './common'
export * from './health-answers'
export * from './management-answers'
export * from './management-openapi'
export * from './management-operations'
export * from './operations'
export * from './source-answers'
export * from './source-openapi'
