// The short, informative text that replaces a bulky tool result: what was there, how big it
// was, and how to get it back. Pure functions of the tool call and its result.

export interface ToolCall {
  name: string;
  /** The call's input, kept only in summary form (paths, commands, patterns, urls). */
  input: Record<string, unknown>;
}

const MAX_INPUT_CHARS = 160;
// Command output: its last lines carry the outcome (a test summary, the error, the exit message),
// its first ones what ran; measured on the 17 tool-heavy corpus logs (npm run bench -- trim
// --reduction), a Bash stub's head and tail were ~96 of its ~132 tokens, a line ~16; the lines
// past 120 chars were JSON and log records, the outcome lines shorter. One head line, not two
// (issue 16): the first line of the 97 Bash stubs of the 17 logs said what started (`$ bun test
// src/`, `[test] $ go test ./...`, `On branch main`, `=== RUN …`, `diff --git …`), and the second
// mostly repeated it (`bun test v1.3.5`, a version banner, a package without tests); 2.1.332, the
// 17, absent / present 74.3% / 79.2% -> 74.5% / 79.3%.
const HEAD_LINES = 1;
const TAIL_LINES = 3;
const MAX_STUB_LINE = 120;

/**
 * How stubs are worded, where the wording is a choice with a reason (issue 16's last points; the
 * rest is in the comments of the functions below). Each says what went, not how to get it back.
 */
export interface StubWordingRule {
  id: string;
  why: string;
  example: string;
}

export const STUB_WORDING_RULES: readonly StubWordingRule[] = [
  {
    id: 'stub.no-fetch-again-hint',
    why: "a stub already says the content is not there, the call right before it shows the path, pattern or URL, and the request carries the tools' own descriptions: '; re-read if needed' (and search, list, fetch again) told the model nothing it lacks (283 stubs of the 17 long tool-heavy logs, ~5 tokens each)",
    example: '[cmv: 847 lines elided; re-read if needed] -> [cmv: 847 lines elided]',
  },
  {
    id: 'stub.bash-size-in-lines',
    why: "a Bash stub's size in lines, not bytes: head, tail and Read work in lines, and the `… N lines …` line says what went; the bytes stay when a line the stub shows was clipped, since then the line count hides how long it was (101 stubs of the 17, ~6 tokens each)",
    example: '[cmv: exit 0, 49 lines / 2.1 KB] -> [cmv: exit 0, 49 lines]',
  },
  {
    id: 'stub.input-on-disk',
    why: 'an input stub the file on disk answers for says so in two words: the call beside it names the file (210 stubs of the 17 with the files present, 4 tokens each)',
    example: '[cmv: 40 lines elided; the file on disk holds them] -> [cmv: 40 lines elided; on disk]',
  },
];

export function formatSize(chars: number): string {
  if (chars < 1024) return `${chars} chars`;
  const kb = chars / 1024;
  return kb < 1024 ? `${kb < 10 ? kb.toFixed(1) : Math.round(kb)} KB` : `${(kb / 1024).toFixed(1)} MB`;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function str(input: Record<string, unknown>, key: string): string | undefined {
  const v = input[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

function clipLine(line: string): string {
  return line.length <= MAX_STUB_LINE ? line : `${line.slice(0, MAX_STUB_LINE - 1)}…`;
}

/** Terminal colour and cursor codes: tokens that say nothing to the model. */
const ANSI_CODES = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** The lines of command output a stub shows: blank lines and terminal codes left out. */
function outputLines(text: string): string[] {
  return text
    .replace(ANSI_CODES, '')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** The lines a Bash stub shows of the output: all, or the first and the last. */
function shownLines(lines: string[]): string[] {
  return lines.length <= HEAD_LINES + TAIL_LINES + 1 ? lines : [...lines.slice(0, HEAD_LINES), ...lines.slice(-TAIL_LINES)];
}

/** First and last lines of a text, for command output: blank lines and terminal codes left out. */
function headAndTail(lines: string[]): string {
  if (lines.length <= HEAD_LINES + TAIL_LINES + 1) return lines.map(clipLine).join('\n');
  return [...lines.slice(0, HEAD_LINES).map(clipLine), `… ${lines.length - HEAD_LINES - TAIL_LINES} lines …`, ...lines.slice(-TAIL_LINES).map(clipLine)].join('\n');
}

/** Paths listed in a search result, one per line (Glob, Grep files mode, LS). */
function listedPaths(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('Found ') && !l.startsWith('(Results are truncated'));
}

function firstPaths(paths: string[], cwd: string | undefined): string {
  return paths
    .slice(0, 3)
    .map((p) => clip(displayPath(p, cwd), 120))
    .join(', ');
}

/** Bash results of failed commands begin with "Exit code N". */
export function exitStatus(text: string, isError: boolean): number | undefined {
  const m = /^(?:Error: )?Exit code (\d+)/.exec(text);
  if (m) return Number(m[1]);
  return isError ? undefined : 0;
}

/**
 * A path as the session's working directory sees it: stubs name files the way the user would, and
 * a project path repeated in every stub is tokens the model already has.
 */
export function displayPath(path: string, cwd: string | undefined): string {
  if (!cwd || cwd === '/') return path;
  const root = cwd.endsWith('/') ? cwd : `${cwd}/`;
  if (path === cwd || path === root) return '.';
  return path.startsWith(root) && path.length > root.length ? path.slice(root.length) : path;
}

/**
 * The first sentence of a tool's confirmation line, without the path its call names ("The file
 * has been updated."): the call, sent right before its result, shows it. Other paths are shown
 * from the working directory.
 */
export function confirmationOf(text: string, path: string | undefined, cwd: string | undefined): string {
  const line = text.split('\n', 1)[0].replace(FILE_STATE_NOTE, '');
  const sentence = /^(.*?[.:])\s+(?:Here's|Here is)\b/.exec(line)?.[1] ?? line;
  const shown = path
    ? sentence
        .replace(` ${path} `, ' ')
        .replace(new RegExp(` at: ${escapeRegExp(path)}$`), '.')
        .split(path)
        .join(displayPath(path, cwd))
    : sentence;
  return clip(shown, 160);
}

/**
 * The note 2.1.x clients add to an edit's or write's confirmation (`The file … has been updated
 * successfully. (file state is current in your context — no need to Read it back)`, 11 logs of
 * the recent corpus): a claim about the client's read-state cache when the call ran. A resumed
 * client starts without that cache, and a trimmed log may show a stub where the text was (files
 * present), so the note no longer holds; it goes with the path (~15 tokens a confirmation).
 */
const FILE_STATE_NOTE = / ?\(file state is current in your context[^)]*\)/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * An edit's or write's confirmation without its file snippet (`cat -n` of the file around the
 * change): the snippet's size says nothing the model needs (the call shows the change; the file,
 * or a Read, the rest), so the stub does not give it (7 tokens a confirmation).
 */
function stubSnippet(sentence: string): string {
  return `[cmv: ${sentence.replace(/[.:]$/, '')}; its file snippet elided]`;
}

/**
 * A tool's confirmation that says no more than its call, sent right before it, already shows: the
 * same fact in fewer tokens (issue 16, rules as data). A result is one only when it succeeded (not
 * an error; the API reads a result without `is_error` as a success) and matches whole.
 */
export interface ConfirmationRule {
  id: string;
  tools: readonly string[];
  /** The confirmation (an edit's or write's already without the path its call names and the file-state note). */
  pattern: RegExp;
  /** Its shorter form; undefined when the call does not show what the confirmation says. */
  short: (match: RegExpExecArray, input: Record<string, unknown>) => string | undefined;
  why: string;
  example: string;
}

export const CONFIRMATION_RULES: readonly ConfirmationRule[] = [
  {
    id: 'confirm.file-updated',
    tools: ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'],
    pattern: /^The file has been updated(?: successfully)?\.$/,
    short: () => 'Updated.',
    why: "the call names the file and shows the change; the result says only that it applied, which a result that is no error says in one word (7 tokens to 3; 196 of the 17 long tool-heavy logs' Edit results, under the threshold, where the trim dropped the path already)",
    example: 'The file /repo/src/a.ts has been updated successfully. -> Updated.',
  },
  {
    id: 'confirm.file-created',
    tools: ['Write'],
    pattern: /^File created successfully\.$/,
    short: () => 'Created.',
    why: 'the call names the file and holds its content; created, not updated, is all the result adds (2.1.x writes `File created successfully at: PATH`)',
    example: 'File created successfully at: /repo/src/a.ts -> Created.',
  },
  {
    id: 'confirm.task-updated',
    tools: ['TaskUpdate'],
    pattern: /^Updated task #(\S+) ([\w, ]+)$/,
    // Only for the task the call names, and fields the call sets (or the status it sets).
    short: (m, input) => (String(input.taskId) === m[1] && m[2].split(/,\s*/).every((field) => field in input || input.status === field) ? 'Updated.' : undefined),
    why: 'the call names the task and the fields it sets; the result repeats them (`Updated task #3 status`, 88 results in the 17 long tool-heavy logs, 2.1.x)',
    example: 'Updated task #3 status -> Updated.',
  },
  {
    id: 'confirm.task-created',
    tools: ['TaskCreate'],
    pattern: /^Task #(\S+) created successfully: ([\s\S]*)$/,
    // The task's number is the result's own (later calls name it); the subject is the call's.
    short: (m, input) => (input.subject === m[2] ? `Task #${m[1]} created.` : undefined),
    why: "the subject repeats the call's own subject, sent right before; the number is new (later TaskUpdate calls name it) and stays",
    example: 'Task #1 created successfully: Implement the parser -> Task #1 created.',
  },
];

/** The shorter form of a confirmation its call shows, if a rule has one. */
export function shortenConfirmation(tool: string, text: string, input: Record<string, unknown>): string | undefined {
  for (const rule of CONFIRMATION_RULES) {
    if (!rule.tools.includes(tool)) continue;
    const match = rule.pattern.exec(text);
    const short = match ? rule.short(match, input) : undefined;
    if (short !== undefined && short.length < text.length) return short;
  }
  return undefined;
}

/** Tools whose result confirms a change to the file their call names. */
export const CONFIRMING_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

/**
 * An edit's or write's confirmation, at any size: without the file snippet (the file as it now
 * is, around the change the call shows) and without the path its call names. Undefined when the
 * result is no one-line confirmation with or without a snippet, or when nothing would be shorter.
 */
export function shortConfirmation(call: ToolCall, text: string, cwd?: string): string | undefined {
  const path = str(call.input, 'file_path') ?? str(call.input, 'notebook_path');
  const first = text.split('\n', 1)[0];
  const snippet = first !== text && /\b(?:Here's|Here is)\b/.test(first);
  if (!snippet && first !== text) return undefined;
  const named = confirmationOf(text, path, cwd);
  const sentence = shortenConfirmation(call.name, named, call.input) ?? named;
  if (!snippet && sentence === named && (!path || !text.includes(path))) return undefined;
  const short = snippet ? stubSnippet(sentence) : sentence;
  return short.length < text.length ? short : undefined;
}

/** The stub for a tool result's text; `cwd` is the session's working directory when the call ran. */
export function stubToolText(call: ToolCall | undefined, text: string, isError: boolean, cwd?: string): string {
  const name = call?.name ?? 'unknown tool';
  const input = call?.input ?? {};
  const size = `${lineCount(text)} lines / ${formatSize(text.length)}`;
  const fullPath = str(input, 'file_path') ?? str(input, 'notebook_path') ?? str(input, 'path');
  switch (name) {
    case 'Read':
    case 'NotebookRead':
      // Not the tool, the path nor the offset: the call, sent right before its result, shows them.
      // Lines, not bytes: Read pages by lines (offset, limit), so the size says no more (3 tokens).
      return `[cmv: ${lineCount(text)} lines elided]`;
    case 'Bash':
    case 'BashOutput':
    case 'KillShell':
    case 'KillBash': {
      // The command is not repeated: the call, sent right before its result, shows it (as an
      // input stub does not repeat the call's file_path). A background shell's id is.
      const shell = name === 'Bash' ? undefined : (str(input, 'bash_id') ?? str(input, 'shell_id'));
      const status = exitStatus(text, isError);
      const statusText = status === undefined ? 'failed' : `exit ${status}`;
      const lines = outputLines(text);
      // Lines, not bytes (rule `stub.bash-size-in-lines`), unless a line shown was clipped.
      const clipped = shownLines(lines).some((line) => line.length > MAX_STUB_LINE);
      const shown = clipped ? size : `${lineCount(text)} lines`;
      // Not 'Bash' either (the call shows it), nor 'first and last lines' (the `… N lines …` line
      // between them says what went; an output of 5 lines or fewer keeps them all): 3 tokens a stub.
      return `[cmv: ${name === 'Bash' ? '' : `${name}${shell ? ` ${clip(shell, MAX_INPUT_CHARS)}` : ''} `}${statusText}, ${shown}]\n${headAndTail(lines)}`;
    }
    // Searches, listings and fetches: not the pattern, path, URL or query, which the call shows;
    // nor, for a search or a listing, the tool and the bytes: the count is what it found.
    case 'Grep': {
      const paths = listedPaths(text);
      const count = /^Found (\d+)/.exec(text)?.[1] ?? String(paths.length);
      return `[cmv: ${count} matches elided; first: ${firstPaths(paths, cwd)}]`;
    }
    case 'Glob':
    case 'LS': {
      const paths = listedPaths(text);
      return `[cmv: ${paths.length} paths elided; first: ${firstPaths(paths, cwd)}]`;
    }
    case 'Edit':
    case 'MultiEdit':
    case 'Write':
    case 'NotebookEdit': {
      // The confirmation says what happened; the rest is a snippet of the file as it now is.
      return stubSnippet(confirmationOf(text, fullPath, cwd));
    }
    case 'WebFetch':
      return `[cmv: WebFetch, ${size} elided]`;
    case 'WebSearch':
      return `[cmv: WebSearch, ${size} of results elided]`;
    default: {
      const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
      return `[cmv: ${name} result, ${size} elided; first line: ${clip(first, 160)}]`;
    }
  }
}

export function stubImage(call: ToolCall | undefined, mediaType: string | undefined, base64Chars: number): string {
  const path = call ? str(call.input, 'file_path') : undefined;
  const kind = mediaType === 'application/pdf' ? 'PDF' : mediaType ? mediaType.replace('image/', '').toUpperCase() : 'image';
  return `[cmv: ${kind} ${mediaType === 'application/pdf' ? 'document' : 'image'}${path ? ` from ${path}` : ''}, ${formatSize(Math.round((base64Chars * 3) / 4))} elided]`;
}

// Input stubs sit beside the call's own file_path, so they do not repeat it.

// Input stubs of text a file holds or held give its lines, not its bytes: an edit, a write and a
// Read of the file all work in lines (3 to 4 tokens a stub; issue 16).

/** The stub for a large tool input (Write content, Edit strings) whose result the file on disk holds. */
export function stubToolInput(value: string): string {
  return `[cmv: ${lineCount(value)} lines elided; on disk]`;
}

/**
 * The stub for the text an applied edit replaced (the file holds the new text, git the old);
 * `inPart` when a later edit changed some of the new text since; `beside` when the new_string's
 * own stub, right beside it, says the file holds it (9 tokens a stubbed edit not said twice).
 */
export function stubReplacedText(value: string, held: 'whole' | 'in part' | 'beside' = 'whole'): string {
  const size = `${lineCount(value)} lines replaced`;
  return held === 'beside' ? `[cmv: ${size}]` : `[cmv: ${size}; the file on disk holds the new text${held === 'in part' ? ' in part' : ''}]`;
}

/**
 * The stub for the old_string of an edit its result says applied: the file then held the new text.
 * It does not say so: the result, sent right after the call, does (as the `beside` stub leaves it
 * to the new_string's stub; 4 tokens an edit).
 */
export function stubAppliedReplacedText(value: string): string {
  return `[cmv: ${lineCount(value)} lines replaced]`;
}

/**
 * The stub for an Edit's old_string that repeats text an earlier call of the conversation wrote
 * and still shows verbatim: the model finds it there, by the call's id.
 */
export function stubRepeatedText(value: string, earlier: { toolId: string; tool: string; whole: boolean; onDisk?: boolean }): string {
  const field = earlier.tool === 'Write' ? 'content' : 'new_string';
  // `onDisk`: that call's text is itself a stub, since the file on disk holds it whole.
  const where = `${field} of the earlier ${earlier.tool} ${earlier.toolId}${earlier.onDisk ? ', which the file on disk holds' : ''}`;
  return `[cmv: ${lineCount(value)} lines elided; ${earlier.whole ? `the same text as the ${where}` : `a passage of the ${where}`}]`;
}

/**
 * The stub for a run of lines of a written text that a later applied edit of the same file
 * replaced (its old_string holds the run): those lines are gone from the file, and the later
 * call's new_string shows what stands there now.
 */
export function stubReplacedRun(value: string, later: { toolId: string; tool: string }): string {
  return `[cmv: ${lineCount(value)} lines elided; the later ${later.tool} ${later.toolId} replaced them]`;
}

/** Long error results keep their head and tail: the message is the part that carries meaning. */
export function clipError(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // The marker's own length is budgeted, so a clipped error is never clipped again.
  const half = Math.max(1, Math.floor((maxChars - 64) / 2));
  return `${text.slice(0, half)}\n[cmv: ${formatSize(text.length - 2 * half)} of error output elided]\n${text.slice(-half)}`;
}

/** True for text cmv wrote itself, so a second trim leaves it alone. */
export function isStub(text: string): boolean {
  return text.startsWith('[cmv: ');
}
