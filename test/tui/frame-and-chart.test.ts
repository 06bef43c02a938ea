import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { FrameWriter, diffFrames } from '../../src/tui/frame-writer.js';
import { plotRows } from '../../src/tui/components/breakeven-chart.js';
import { intentOf } from '../../src/tui/keymap.js';
import { INITIAL_STATE, reduce } from '../../src/tui/state.js';
import type { Key } from 'ink';

class FakeTerminal extends EventEmitter {
  columns = 40;
  rows = 5;
  written: string[] = [];
  write(data: string): boolean {
    this.written.push(data);
    return true;
  }
}

describe('the frame writer', () => {
  it('rewrites only the rows that changed, and nothing for an unchanged frame', () => {
    const terminal = new FakeTerminal();
    const writer = new FrameWriter(terminal);
    writer.write('title\nrow one\nrow two\n');
    expect(terminal.written).toHaveLength(1);
    writer.write('title\nrow one\nrow two\n');
    expect(terminal.written).toHaveLength(1);
    writer.write('title\nrow 1\nrow two\n');
    expect(terminal.written[1]).toBe('\u001b[?2026h\u001b[2;1H\u001b[2Krow 1\u001b[0m\u001b[?2026l');
  });

  it('clears rows a shorter frame no longer uses, and never writes below the terminal', () => {
    expect(diffFrames(['a', 'b', 'c'], ['a'], 10)).toBe('\u001b[2;1H\u001b[2K\u001b[0m\u001b[3;1H\u001b[2K\u001b[0m');
    expect(diffFrames([], ['1', '2', '3'], 2)).not.toContain('3');
  });

  it('keeps the colours of a row and drops the control sequences a log could bring (title, clear, OSC 52)', () => {
    const row = 'prompt \u001b[32mgreen\u001b[39m \u001b]0;pwned\u0007\u001b[2J\u001b]52;c;aGk=\u0007end';
    const drawn = diffFrames([], [row], 5);
    expect(drawn).toContain('\u001b[32mgreen\u001b[39m');
    expect(drawn).not.toContain(']0;');
    expect(drawn).not.toContain('\u001b[2J');
    expect(drawn).not.toContain(']52;');
    expect(drawn).toContain('end');
  });

  it('redraws everything after a resize, from a cleared screen', () => {
    const terminal = new FakeTerminal();
    const writer = new FrameWriter(terminal);
    let resized = 0;
    writer.on('resize', () => resized++);
    writer.write('a\nb');
    terminal.columns = 80;
    terminal.emit('resize');
    expect(resized).toBe(1);
    expect(writer.columns).toBe(80);
    writer.write('a\nb');
    expect(terminal.written.slice(-2)).toEqual(['\u001b[2J', '\u001b[?2026h\u001b[1;1H\u001b[2Ka\u001b[0m\u001b[2;1H\u001b[2Kb\u001b[0m\u001b[?2026l']);
  });
});

describe('the break-even plot', () => {
  it('draws the line without the trim above the one with it once they cross', () => {
    const curve = Array.from({ length: 10 }, (_, i) => ({ turn: i + 1, withoutTrim: (i + 1) * 1.0, withTrim: 2 + (i + 1) * 0.5 }));
    const rows = plotRows(curve, 10, 5);
    expect(rows).toHaveLength(5);
    // First column: the trim's penalty puts "with" above "without".
    const column = (c: number) => rows.map((r) => r[c]);
    expect(column(0).indexOf('•')).toBeLessThan(column(0).indexOf('·'));
    // Last column: without the trim costs more.
    expect(column(9).indexOf('·')).toBeLessThan(column(9).indexOf('•'));
  });
});

describe('keys', () => {
  const key = (over: Partial<Key> = {}) =>
    ({
      upArrow: false,
      downArrow: false,
      leftArrow: false,
      rightArrow: false,
      pageDown: false,
      pageUp: false,
      return: false,
      escape: false,
      ctrl: false,
      shift: false,
      tab: false,
      backspace: false,
      delete: false,
      meta: false,
      ...over,
    }) as Key;

  it('map to intents by mode: letters filter while filtering, only y confirms', () => {
    expect(intentOf('j', key(), 'normal')).toEqual({ kind: 'move', delta: 1 });
    expect(intentOf('', key({ upArrow: true }), 'normal')).toEqual({ kind: 'move', delta: -1 });
    expect(intentOf('', key({ tab: true, shift: true }), 'normal')).toEqual({ kind: 'focus', delta: -1 });
    expect(intentOf('q', key(), 'filter')).toEqual({ kind: 'type', text: 'q' });
    expect(intentOf('y', key(), 'confirm')).toEqual({ kind: 'yes' });
    expect(intentOf('d', key(), 'confirm')).toEqual({ kind: 'no' });
    expect(intentOf('c', key({ ctrl: true }), 'filter')).toEqual({ kind: 'quit' });
  });

  it('move the selection of the focused pane, and a new project starts at its first session', () => {
    let s = reduce(INITIAL_STATE, { type: 'move', delta: 1, projects: 3, rows: 4 });
    expect(s.treeIndex).toBe(1);
    s = reduce(s, { type: 'focus', delta: -1 });
    expect(s.focus).toBe('projects');
    s = reduce(s, { type: 'move', delta: 5, projects: 3, rows: 4 });
    expect([s.projectIndex, s.treeIndex]).toEqual([2, 0]);
  });
});
