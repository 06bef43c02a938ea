#!/usr/bin/env node
// `npm run test:clients`: the e2e suites that drive the real Claude Code CLI, against every pinned
// client (2.1.100 and 2.1.332, devDependencies), or against one release:
//   CMV_CLAUDE_VERSION=2.1.340 npm run test:clients
// installs @anthropic-ai/claude-code@2.1.340 into node_modules/.cache/claude-clients/2.1.340 (once)
// and runs the suites with it alone. Extra arguments go to vitest (e.g. a test file).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PINNED = { '2.1.100': '@anthropic-ai/claude-code', '2.1.332': 'claude-code-2.1.332' };
const version = process.env.CMV_CLAUDE_VERSION;

if (version && !(version in PINNED)) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    console.error(`test:clients: CMV_CLAUDE_VERSION must be a version such as 2.1.340, not "${version}"`);
    process.exit(2);
  }
  const dir = join(ROOT, 'node_modules', '.cache', 'claude-clients', version);
  const pkg = join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json');
  const installed = existsSync(pkg) ? JSON.parse(readFileSync(pkg, 'utf8')).version : undefined;
  if (installed !== version) {
    mkdirSync(dir, { recursive: true });
    console.error(`test:clients: installing @anthropic-ai/claude-code@${version} into ${dir}`);
    const npm = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `@anthropic-ai/claude-code@${version}`], { stdio: 'inherit' });
    if (npm.status !== 0) process.exit(npm.status ?? 1);
  }
}

const args = process.argv.slice(2);
const files = args.length > 0 ? args : ['test/e2e'];
console.error(`test:clients: Claude Code ${version ?? Object.keys(PINNED).join(' and ')}`);
const run = spawnSync('npx', ['vitest', 'run', ...files], { stdio: 'inherit', cwd: ROOT, env: process.env });
process.exit(run.status ?? 1);
