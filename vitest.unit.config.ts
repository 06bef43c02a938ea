// `npm run test:unit`: the fast part of the suite, for the edit-test loop (under a minute on two
// cores). It leaves out what `npm test` still runs: the end-to-end runs of the real Claude Code CLI
// (test/e2e), the real logs and benches of ../shared (those tests skip as they do when it is absent),
// and the files below, which start processes: the built `cmv` CLI, git under the snapshot store,
// npm, or child writers killed at random points.

import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/** Test files that run the built CLI, git (the snapshot store) or other processes: `npm test` only. */
export const PROCESS_TESTS = [
  // the built CLI
  'test/analyze/cost-cli.test.ts',
  'test/cli/analyze-terminal.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/in-place-kill.test.ts',
  'test/cli/trim-cli.test.ts',
  'test/cost/ccusage-corpus.test.ts',
  'test/cost/derived-cost.test.ts',
  'test/graph/cli.test.ts',
  'test/packaging/pack.test.ts',
  'test/store/store-cli.test.ts',
  'test/tui/ui-command.test.ts',
  'test/trim/in-place-live.test.ts',
  // git, through the snapshot store
  'test/secrets/export.test.ts',
  'test/store/branch-resume.test.ts',
  'test/store/branch.test.ts',
  'test/store/graph.test.ts',
  'test/store/history.test.ts',
  'test/store/hostile-import.test.ts',
  'test/store/maintenance.test.ts',
  'test/store/pages.test.ts',
  'test/store/reliability.test.ts',
  'test/store/share.test.ts',
  'test/store/snapshot-history.test.ts',
  'test/store/snapshot.test.ts',
  'test/trim/side-files.test.ts',
  'test/tui/dashboard.test.ts',
];

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ['test/e2e/**', 'node_modules/**', ...PROCESS_TESTS],
      env: { CMV_CORPUS: 'skip' },
      // Files share a worker's modules instead of importing them afresh each (the tokenizer's rank
      // table, Ink, React): a third of the CPU time. `npm test` still isolates every file, so a
      // test that leans on state another file left fails there.
      isolate: false,
    },
  }),
);
