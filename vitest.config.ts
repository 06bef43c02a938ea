import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The e2e tests start the real Claude Code CLI: two cores, so keep files from fighting.
    maxWorkers: 2,
  },
});
