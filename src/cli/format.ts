// Small text helpers shared by the renderers.

import chalk from 'chalk';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(fraction < 0.1 ? 1 : 0)}%`;
}

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

export function relativeTime(ms: number, now = Date.now()): string {
  const seconds = Math.round((now - ms) / 1000);
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.round(hours / 24)}d ago`;
}
