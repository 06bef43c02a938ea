// Whether cmv colours its output, settled once before chalk or Ink load (both read FORCE_COLOR
// when first imported and ignore NO_COLOR by themselves). An explicit flag wins over the
// environment, as no-color.org asks: --color colours even with NO_COLOR set, --no-color never does.

/** The FORCE_COLOR value to set for `argv` and `env`, or undefined to leave the environment as it is. */
export function forceColorFor(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const end = argv.indexOf('--');
  const flags = (end === -1 ? argv : argv.slice(0, end)).filter((a) => a === '--color' || a === '--no-color');
  const flag = flags[flags.length - 1];
  if (flag === '--no-color') return '0';
  if (flag === '--color') return env.FORCE_COLOR && env.FORCE_COLOR !== '0' ? env.FORCE_COLOR : '1';
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  if (noColor || env.TERM === 'dumb') return '0';
  return undefined;
}

/** Sets FORCE_COLOR for this process; call before anything imports chalk or Ink. */
export function settleColour(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  const force = forceColorFor(argv, env);
  if (force !== undefined) env.FORCE_COLOR = force;
}
