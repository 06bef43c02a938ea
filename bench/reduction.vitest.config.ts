import { defineConfig } from 'vitest/config';

// `npm run bench -- trim --reduction` runs bench/trim-reduction.run.ts through vitest, which loads
// the e2e helpers (test/e2e, TypeScript) that resume a log in the real client and read its request.
export default defineConfig({
  test: {
    include: ['bench/trim-reduction.run.ts'],
    testTimeout: 6 * 60 * 60_000,
    hookTimeout: 60_000,
    maxWorkers: 1,
  },
});
