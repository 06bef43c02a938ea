#!/usr/bin/env node
// Sets V8's tiering for a short run (src/v8-tuning.ts) and settles colour before chalk or Ink
// load (both read the environment when first imported), then runs the built CLI.
const { tuneV8 } = await import('../dist/v8-tuning.js');
tuneV8();
const argv = process.argv.slice(2);
const { settleColour } = await import('../dist/cli/colour.js');
settleColour(argv);
if (argv[0] === 'hook' && argv[1] === 'run') {
  // Claude Code starts this for every hooked event: skip the command tree, and exit 0 whatever
  // happens (a hook must never fail Claude Code), even with work cut short by the deadline.
  try {
    const { hookMain } = await import('../dist/hooks/hook-main.js');
    await hookMain(argv[2]);
  } catch (error) {
    process.stderr.write(`cmv hook: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(0);
}
const { main } = await import('../dist/cli/main.js');
const code = await main(process.argv);
// Every command has finished its work when main returns: exit once the output is flushed rather
// than wait for the runtime to wind down (tens of milliseconds after a large trim).
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
