// Passages a large tool input quotes from a text an earlier call wrote and the trim keeps verbatim
// (or stubbed because the file on disk holds it whole):
// an edit whose new_string carries lines of the block an earlier edit wrote (context around the
// change), a Write that moves code from another call's text, a subagent prompt that quotes the plan
// file the model wrote. Each run of whole lines (200 chars or more) the earlier text holds becomes a
// pointer to that call; the lines no earlier text holds stay. Pure.

import { stubRepeatedText } from './stubs.js';

/** A run shorter than this stays: its pointer would save little. */
export const MIN_QUOTED_RUN_CHARS = 200;

/** An earlier text that still stands verbatim in the trimmed log. */
export interface QuotedSource {
  toolId: string;
  tool: string;
  /** The text as the trimmed log shows it. */
  text: string;
  /** Its lines (made once by the caller, however many texts quote it). */
  lines: () => ReadonlySet<string>;
  /** The trimmed log shows a stub in its place: the file on disk holds it whole. */
  onDisk?: boolean;
}

/**
 * `text` with each run of whole lines an earlier source holds (in one piece) replaced by a pointer
 * to that source; undefined when no run is worth one. `budget.chars` bounds the chars searched.
 */
export function pointQuotedRuns(
  text: string,
  sources: readonly QuotedSource[],
  budget: { chars: number },
  stub: (run: string, source: QuotedSource) => string = (run, source) => stubRepeatedText(run, { toolId: source.toolId, tool: source.tool, whole: false, onDisk: source.onDisk }),
  minRunChars = MIN_QUOTED_RUN_CHARS,
): string | undefined {
  if (sources.length === 0) return undefined;
  const lines = text.split('\n');
  const held = (source: QuotedSource, from: number, to: number) => (budget.chars -= source.text.length) > 0 && source.text.includes(lines.slice(from, to + 1).join('\n'));
  const out: string[] = [];
  let pointed = false;
  for (let i = 0; i < lines.length;) {
    // The shortest run from here worth a pointer.
    let end = i;
    let chars = lines[i].length;
    while (chars < minRunChars && end + 1 < lines.length) chars += lines[++end].length + 1;
    // A run neither starts nor ends with a blank line: the text keeps its own spacing.
    const source = lines[i].trim() === '' || chars < minRunChars || budget.chars <= 0 ? undefined : sources.find((s) => s.lines().has(lines[i]) && held(s, i, end));
    if (!source) {
      out.push(lines[i++]);
      continue;
    }
    // A held run only shrinks as it grows: the longest is found by halving.
    let [lo, hi] = [end, lines.length - 1];
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (held(source, i, mid)) lo = mid;
      else hi = mid - 1;
    }
    while (lo > end && lines[lo].trim() === '') lo--;
    out.push(stub(lines.slice(i, lo + 1).join('\n'), source));
    pointed = true;
    i = lo + 1;
  }
  const result = out.join('\n');
  return pointed && result.length < text.length ? result : undefined;
}
