// The server's programmatic entry point, for the workspace's test tooling (`@tis/test-utils`
// starts servers in process and checks answers against the OpenAPI document). The server ships
// as an application (`dist/main.js`, `dist/cli.js`); this entry resolves to source only.
export { ConfigError, IN_MEMORY_DATA_DIR, loadConfig, type ServerConfig } from './config'
export { serverOpenApiDocument } from './openapi'
export { type CreateServerOptions, createServer, type TisServer } from './server'
