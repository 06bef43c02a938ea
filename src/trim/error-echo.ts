// The old_string a failed edit's error repeats: Claude Code answers an edit whose text is not in
// the file (or is there more than once) with the reason and then `String: <old_string>`, word for
// word the call's input, which the request sends right before (seen in both corpora, 1.0.x to
// 2.1.x: 11 of the 13 such errors repeat it exactly). The reason stays; the repeat points back to
// the call. Only when the call still shows its old_string whole. Pure.

import { createHash } from 'node:crypto';

/** What identifies an old_string without keeping it: its length and a digest. */
export type TextDigest = string;

export function digestOf(text: string): TextDigest {
  return `${text.length}:${createHash('sha1').update(text).digest('base64')}`;
}

/** `String: ` and the repeated text, to the end of the error (before a closing tag). */
const ECHO = /\nString: ([\s\S]*?)(<\/tool_use_error>)?$/;

/** Repeats shorter than this stay: the pointer would save little. */
const MIN_ECHO_CHARS = 120;

/** The error with its repeat of one of `oldStrings` (digests of the call's kept old_strings) pointed back, or undefined. */
export function stubEditErrorEcho(text: string, oldStrings: readonly TextDigest[]): string | undefined {
  const m = ECHO.exec(text);
  if (!m || m[1].length < MIN_ECHO_CHARS || !oldStrings.includes(digestOf(m[1]))) return undefined;
  return `${text.slice(0, m.index)}\nString: [cmv: the old_string of this call, word for word]${m[2] ?? ''}`;
}
