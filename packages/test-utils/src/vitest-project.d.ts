import type { ViteUserConfig } from 'vitest/config'

/** Vitest project settings shared by every package; see vitest-project.js. */
export declare function defineTisProject(
  name: string,
  test?: NonNullable<ViteUserConfig['test']>,
): ViteUserConfig
