// `cmv analyze`: trim and price every session of folders or globs, in parallel.

import { Option } from 'commander';
import { Output } from '../output.js';
import type { AnalyzeCommandOptions } from '../commands/analyze.js';
import { command, jsonOption, priceOptions, trimOptions, withOptions, type Run } from './shared-options.js';

export const analyze = (run: Run) =>
  withOptions(
    command('analyze', 'trim and price every session of folders or globs (default: every Claude config dir), in parallel', [
      'cmv analyze                           # every session in your Claude config dirs',
      'cmv analyze ~/.claude/projects/-home-me-app --md > report.md',
      "cmv analyze 'logs/**/*.jsonl' --jobs 4 --json",
      'cmv analyze ~/.claude/projects --svg plots/',
    ]).argument('[paths...]', 'session logs, folders (every .jsonl below) or globs'),
    [
      new Option('-j, --jobs <n>', 'threads, this one included (default: the number of cores; a batch under 8 MB runs in this one)'),
      jsonOption(),
      new Option('--csv', 'print one CSV row per file'),
      new Option('--md', 'print a Markdown report'),
      new Option('--svg <dir>', 'also write plots (reduction, break-even, cost curves) as SVG files to DIR'),
      ...priceOptions(),
      ...trimOptions('trim: ', { budget: false }),
    ],
  ).action((paths: string[], opts: AnalyzeCommandOptions) => run(async () => (await import('../commands/analyze.js')).analyzeCommand(paths, opts, new Output(opts))));
