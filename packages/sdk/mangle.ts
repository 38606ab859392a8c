/**
 * The SDK's private property names: the fields and methods of its internal objects (the
 * transport's items, buffer, waits and pauses; the client's recorder) end with `_`, and esbuild
 * shortens every such name when it bundles the package (`mangleProps`). The published build
 * (tsup.config.ts), the size check and the bundling runtime tests all use this one pattern, so
 * the size measured is the size shipped. No public name ends with `_`.
 */
export const mangleProps = /_$/
