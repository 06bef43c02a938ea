// Text from logs and bundles reaches the terminal without its control sequences, colours or not.

import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { printable } from '../../src/text/terminal-text.js';
import { Output } from '../../src/cli/output.js';

const HOSTILE = [
  'title\x1b]0;pwned\x07 ok', // window title (OSC, BEL-terminated)
  'clip\x1b]52;c;ZWNobyBoaQ==\x1b\\ ok', // OSC 52 clipboard write (ST-terminated)
  'clear\x1b[2J\x1b[H ok', // clear screen, cursor home
  'c1\u009b2J ok', // a C1 CSI
  'bell\x07 back\x08 cr\r ok',
  'dcs\x1bP1$r0m\x1b\\ ok',
  'lone\x1b',
];

describe('printable', () => {
  it('strips escape sequences, C0 (but newline and tab) and C1 controls', () => {
    for (const text of HOSTILE) {
      const out = printable(text);
      expect(out, JSON.stringify(text)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    }
    expect(printable('title\x1b]0;pwned\x07 ok')).toBe('title ok');
    expect(printable('a\n\tb')).toBe('a\n\tb');
    expect(printable('日本 é 😀')).toBe('日本 é 😀');
  });

  it('keeps plain colour codes only when asked (cmv colouring its own output)', () => {
    expect(printable('\x1b[31mred\x1b[39m')).toBe('red');
    expect(printable('\x1b[31mred\x1b[39m', true)).toBe('\x1b[31mred\x1b[39m');
    expect(printable('\x1b]0;x\x07\x1b[2J', true)).toBe('');
  });

  it('is applied to everything an Output prints', () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = new Output({}, stdout, stderr);
    out.render({ message: 'hi\x1b]52;c;AAAA\x07' }, (r) => r.message);
    out.warn('cwd \x1b[2J/tmp');
    out.info('label \u009b31m');
    const text = `${stdout.read()?.toString() ?? ''}${stderr.read()?.toString() ?? ''}`;
    expect(text).not.toMatch(/\x1b\]|\x1b\[2J|\u009b/);
    expect(text).toContain('hi');
  });
});
