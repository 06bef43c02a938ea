// Quantities as text - sizes, counts, shares, ages - read the same in the command line's reports
// and the dashboard. Pure: no colour, no terminal.

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

export function relativeTime(ms: number, now = Date.now()): string {
  const seconds = Math.round((now - ms) / 1000);
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours}h ago`;
  return `${Math.round(hours / 24)}d ago`;
}

const IRREGULAR: Record<string, string> = { entry: 'entries', summary: 'summaries' };

/** "1 prompt", "3 prompts", "1,024 tool calls": a count with its noun agreeing. */
export function plural(n: number, noun: string): string {
  const many = IRREGULAR[noun] ?? (/(s|sh|ch|x)$/.test(noun) ? `${noun}es` : `${noun}s`);
  return `${formatCount(n)} ${n === 1 ? noun : many}`;
}

/**
 * A reduction as the change it made: 0.25 -> "-25%", -0.031 -> "+3.1%"; one that rounds to
 * nothing has no sign ("0.0%", never "-0.0%").
 */
export function formatReduction(fraction: number): string {
  const text = formatPercent(Math.abs(fraction));
  if (/^0(\.0)?%$/.test(text)) return text;
  return `${fraction > 0 ? '-' : '+'}${text}`;
}

/** Dollars with the sign before the symbol ("-$0.025", never "$-0.025"), more digits for small sums. */
export function formatMoney(value: number): string {
  const abs = Math.abs(value);
  if (abs < 0.00005) return '$0';
  const text = abs >= 100 ? abs.toFixed(0) : abs >= 1 ? abs.toFixed(2) : abs >= 0.01 ? abs.toFixed(3) : abs.toFixed(4);
  return `${value < 0 ? '-' : ''}$${text}`;
}
