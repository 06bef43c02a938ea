import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatDuration, progressLine, ProgressDisplay } from '../../src/cli/progress.js';

const plain = new Chalk({ level: 0 });
const MB = 1024 * 1024;

describe('progressLine', () => {
  it('shows files done of all, bytes, MB/s and the time left at that rate', () => {
    const line = progressLine({ done: 3, total: 10, bytesDone: 20 * MB, bytesTotal: 80 * MB }, 4000, 100, plain);
    expect(line).toMatch(/^analysing .{30} 3\/10 files · 20 MB of 80 MB · 5\.0 MB\/s · ETA 12 s$/);
    // A quarter of the bytes: a quarter of the 30-cell bar, 7.5 cells.
    expect(/analysing (.*) 3\/10/.exec(line)![1].trimEnd()).toBe('███████▌');
  });

  it('says it cannot tell speed or time left before the first file is done, and done at the end', () => {
    expect(progressLine({ done: 0, total: 4, bytesDone: 0, bytesTotal: MB }, 500, 100, plain)).toContain('0/4 files · 0 B of 1.0 MB · … MB/s · ETA …');
    expect(progressLine({ done: 4, total: 4, bytesDone: MB, bytesTotal: MB }, 500, 100, plain)).toMatch(/4\/4 files .* · done$/);
  });

  it('never fills the last column of the terminal, dropping the bar first on a narrow one', () => {
    const p = { done: 1, total: 2, bytesDone: MB, bytesTotal: 2 * MB };
    for (const width of [120, 80, 60, 40, 20]) expect(progressLine(p, 1000, width, plain).length).toBeLessThan(width);
    expect(progressLine(p, 1000, 60, plain)).not.toContain('█');
  });
});

describe('formatDuration', () => {
  it('reads as seconds, minutes or hours', () => {
    expect(formatDuration(0.4)).toBe('<1 s');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(125)).toBe('2 min 05 s');
    expect(formatDuration(3 * 3600 + 7 * 60)).toBe('3 h 07 min');
  });
});

describe('ProgressDisplay', () => {
  function display(plainTerminal = false) {
    const writes: string[] = [];
    let now = 0;
    const d = new ProgressDisplay({ write: (t: string) => writes.push(t), columns: 100 }, { intervalMs: 100, plain: plainTerminal, ink: plain, now: () => now });
    return { d, writes, tick: (ms: number) => (now += ms) };
  }
  const at = (done: number) => ({ done, total: 5, bytesDone: done * MB, bytesTotal: 5 * MB });

  it('redraws the line in place at most every interval, and always draws the last state', () => {
    const { d, writes, tick } = display();
    d.update(at(0));
    tick(10);
    d.update(at(1)); // too soon: skipped
    tick(150);
    d.update(at(2));
    tick(1);
    d.update(at(5)); // the end: drawn at once
    expect(writes.map((w) => /(\d)\/5 files/.exec(w)![1])).toEqual(['0', '2', '5']);
    for (const w of writes) expect(w.startsWith('\r') && w.endsWith('\u001b[K')).toBe(true);
    d.clear();
    expect(writes.at(-1)).toBe('\r\u001b[2K');
  });

  it('uses no escape sequence on a dumb terminal: blanks the old line with spaces', () => {
    const { d, writes, tick } = display(true);
    d.update(at(0));
    tick(200);
    d.update(at(5));
    d.clear();
    expect(writes.join('')).not.toContain('\u001b');
    expect(writes.at(-1)).toMatch(/^\r +\r$/);
  });

  it('clears nothing when it never drew', () => {
    const { d, writes } = display();
    d.clear();
    expect(writes).toEqual([]);
  });
});
