// The scratch project the tool-heavy sessions work on: the real sources of commander (pinned by
// the lockfile, ~4,200 lines of JS) plus a small CLI of ours with a real bug, as a git repository
// with fixed author and dates, so every generated session starts from the same bytes.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const COMMANDER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', 'commander');

/** Author, committer and dates of every commit in the project, the CLI's included. */
export const GIT_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: 'Dana Reviewer',
  GIT_AUTHOR_EMAIL: 'dana@example.com',
  GIT_COMMITTER_NAME: 'Dana Reviewer',
  GIT_COMMITTER_EMAIL: 'dana@example.com',
  GIT_AUTHOR_DATE: '2026-03-02T10:00:00+00:00',
  GIT_COMMITTER_DATE: '2026-03-02T10:00:00+00:00',
  GIT_CONFIG_NOSYSTEM: '1',
};

/**
 * A CLI on top of commander with the classic argParser bug: `parseInt` gets the previous value
 * (the default, 80) as its radix, so `--width 40` parses to NaN and `new Array(NaN)` throws.
 */
export const BANNER_JS = `#!/usr/bin/env node
// Prints its arguments framed in a box, e.g. \`node bin/banner.js --width 40 release 14.0.3\`.
const { program } = require('..');

program
  .name('banner')
  .description('print text framed in a box')
  .argument('<words...>', 'text to print')
  .option('-w, --width <columns>', 'width of the box', parseInt, 80)
  .option('-c, --char <char>', 'border character', '*')
  .action((words, options) => {
    const text = words.join(' ');
    const border = new Array(options.width + 1).join(options.char);
    const inner = options.width - 4;
    const padded = text.length > inner ? text.slice(0, inner) : text.padEnd(inner);
    console.log(border);
    console.log(\`\${options.char} \${padded} \${options.char}\`);
    console.log(border);
  });

program.parse();
`;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, ...GIT_ENV },
    encoding: 'utf8',
  });
}

/** Builds the project in `dir` (created): commander's lib/, index.js, package.json, LICENSE, then bin/banner.js; two commits. */
export function buildProject(dir: string): void {
  mkdirSync(join(dir, 'lib'), { recursive: true });
  for (const file of readdirSync(join(COMMANDER_DIR, 'lib')).filter((f) => f.endsWith('.js'))) {
    copyFileSync(join(COMMANDER_DIR, 'lib', file), join(dir, 'lib', file));
  }
  for (const file of ['index.js', 'package.json', 'LICENSE']) copyFileSync(join(COMMANDER_DIR, file), join(dir, file));
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', `Vendor commander ${readVersion(dir)} sources`);
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'banner.js'), BANNER_JS, { mode: 0o755 });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'Add banner example CLI');
}

function readVersion(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** 1-based number of the first line of `file` (in the project) that starts with `start`; throws when absent. */
export function lineOf(dir: string, file: string, start: string): number {
  const index = readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .findIndex((line) => line.startsWith(start));
  if (index < 0) throw new Error(`${file}: no line starting with ${JSON.stringify(start)}`);
  return index + 1;
}

/** The text of `file` from `from` up to (not including) `to`; throws when either is absent. */
export function sliceOf(dir: string, file: string, from: string, to: string): string {
  const text = readFileSync(join(dir, file), 'utf8');
  const a = text.indexOf(from);
  const b = a < 0 ? -1 : text.indexOf(to, a + from.length);
  if (a < 0 || b < 0) throw new Error(`${file}: no text between ${JSON.stringify(from)} and ${JSON.stringify(to)}`);
  return text.slice(a, b);
}
