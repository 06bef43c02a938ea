// Small text helpers shared by the renderers: the plain quantities (src/text, shared with the
// dashboard), and the coloured bar and table of the command line.

import chalk from 'chalk';

export { formatBytes, formatCount, formatMoney, formatPercent, formatReduction, plural, relativeTime } from '../text/quantities.js';

export function bar(fraction: number, width: number): string {
  const cells = Math.max(0, Math.min(width, Math.round(fraction * width)));
  return chalk.cyan('█'.repeat(cells)) + chalk.dim('·'.repeat(width - cells));
}

export function table(rows: string[][], align: ('left' | 'right')[] = []): string {
  const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').length;
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visible(cell))));
  return rows
    .map((row) =>
      row
        .map((cell, i) => {
          const pad = ' '.repeat(widths[i] - visible(cell));
          return align[i] === 'right' ? pad + cell : i === row.length - 1 ? cell : cell + pad;
        })
        .join('  '),
    )
    .join('\n');
}
