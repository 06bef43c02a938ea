// `npm run test:unit`: the suite without the end-to-end runs of the real Claude Code CLI and
// without the real logs of ../shared (those tests skip as they do when it is absent).

import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['test/e2e/**', 'node_modules/**'],
      env: { CMV_CORPUS: 'skip' },
    },
  }),
);
