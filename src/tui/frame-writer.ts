// Puts Ink's frames on the terminal by rewriting only the rows that changed, at absolute
// positions on the alternate screen. Ink (in debug mode) hands over each whole frame; a frame
// equal to the last writes nothing, so an idle poll never touches the screen, and a change
// redraws its rows only, inside a synchronized update where the terminal supports one.
// (Ink 6.8's own incremental mode starts one row low when a frame ends with a newline.)

import { EventEmitter } from 'node:events';
import { printable } from '../text/terminal-text.js';

const ESC = '\u001b[';
const BEGIN_SYNC = `${ESC}?2026h`;
const END_SYNC = `${ESC}?2026l`;

/** The escape sequences that move to a row, clear it and write it (cleared first: a clear after
 * the text would also take the last column of a row as wide as the terminal). The row keeps Ink's
 * colour codes and nothing else a log could have brought in (a title change, a screen clear, OSC 52). */
export function rowUpdate(row: number, text: string): string {
  return `${ESC}${row + 1};1H${ESC}2K${printable(text, true)}${ESC}0m`;
}

/** The writes that turn `previous` rows into `next` rows; '' when nothing changed. */
export function diffFrames(previous: string[], next: string[], rows: number): string {
  let out = '';
  const height = Math.min(rows, Math.max(previous.length, next.length));
  for (let row = 0; row < height; row++) {
    const text = next[row] ?? '';
    if (text !== (previous[row] ?? '')) out += rowUpdate(row, text);
  }
  return out;
}

export interface Terminal {
  columns: number;
  rows: number;
  write(data: string): boolean;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

/** A stand-in for stdout that Ink renders into; it forwards size and resizes of the terminal. */
export class FrameWriter extends EventEmitter {
  readonly isTTY = true;
  private previous: string[] = [];
  private readonly onResize = () => {
    // After a resize the terminal may have reflowed anything: start from a clean screen.
    this.previous = [];
    this.terminal.write(`${ESC}2J`);
    this.emit('resize');
  };

  constructor(private readonly terminal: Terminal) {
    super();
    terminal.on('resize', this.onResize);
  }

  get columns(): number {
    return this.terminal.columns;
  }

  get rows(): number {
    return this.terminal.rows;
  }

  write(frame: string | Uint8Array): boolean {
    const text = typeof frame === 'string' ? frame : Buffer.from(frame).toString('utf8');
    const next = text.replace(/\n$/, '').split('\n');
    const update = diffFrames(this.previous, next, this.rows);
    this.previous = next;
    if (update) this.terminal.write(`${BEGIN_SYNC}${update}${END_SYNC}`);
    return true;
  }

  /** Row count of the last frame (tests). */
  get height(): number {
    return this.previous.length;
  }

  close(): void {
    this.terminal.off('resize', this.onResize);
  }
}
