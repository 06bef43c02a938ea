#!/usr/bin/env node
// Settles colour before chalk or Ink load (both read the environment when first imported),
// then runs the built CLI.
const argv = process.argv.slice(2);
const noColorEnv = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
if (argv.includes('--no-color') || noColorEnv || process.env.TERM === 'dumb') {
  process.env.FORCE_COLOR = '0';
} else if (argv.includes('--color')) {
  process.env.FORCE_COLOR = process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0' ? process.env.FORCE_COLOR : '1';
}
const { main } = await import('../dist/cli/main.js');
process.exitCode = await main(process.argv);
