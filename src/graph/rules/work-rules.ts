// Rules on finished work, open work and the problems met, grounded in what the log proves: a check
// whose failure a pipe hid from its exit code, a commit the session ended on before its result.
// Kept in their own table so they can be read and tuned apart from the older tool rules.

import type { ToolStep } from '../session-turns.js';
import { CHECK, TEST_RUNNER, bashFacts, blockedCommitFacts, commandSegments, exitCode } from '../bash-facts.js';
import { clipWords, normaliseLabel } from '../labels.js';
import { reportedDone } from '../extract-state.js';
import { textStep, toolStep, type Rule, type TextInput, type ToolInput } from './engine.js';

const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);

function command(step: ToolStep): string {
  return SHELL_TOOLS.has(step.name) && typeof step.input.command === 'string' ? step.input.command : '';
}

/** A pipe into a pager or filter: the shell reports the filter's exit code, not the check's. */
const MASKING_PIPE = /\|\s*(?:head|tail|grep|less|more|tee|cat|sed|awk)\b/;

/**
 * What a check prints when it failed, whatever its exit code said: Go's "--- FAIL:" and "FAIL\t",
 * a runner's failed count above zero, a linter's "N issues" above zero, TypeScript's "error TS",
 * a task runner's own "task failed" or "exited with code N", or an output that opens on "error:".
 */
export function checkFailedInOutput(output: string): boolean {
  if (/^--- FAIL: |^FAIL\s|^FAIL$/m.test(output)) return true;
  const count = (re: RegExp) => Number(re.exec(output)?.[1] ?? 0);
  if (count(/\b(\d+) failed\b/) > 0 || count(/^\s*(\d+) fail$/m) > 0 || count(/^# fail (\d+)$/m) > 0) return true;
  if (count(/^(\d+) issues?[.:]?/m) > 0 || /\berror TS\d+:/.test(output)) return true;
  if (/\b(?:ERROR\s+)?task failed\b|\bexited with code [1-9]\d*\b|^npm ERR!/m.test(output)) return true;
  const first = output.split('\n').find((l) => l.trim() !== '') ?? '';
  return /^(?:error|fatal)(?:\[\w+\])?:\s/i.test(first.trim());
}

/**
 * A run of chosen tests (`go test -run X`, `pytest -k x`, `pytest a.py::test_x`, `jest -t x`): the
 * loop of writing a test and making it pass, where a red run is the expected first step.
 */
const TARGETED = /\s(?:-run|-k|-t|--testNamePattern|--grep|--filter)[\s=]|\S::\w/;

const maskedCheck: Rule<ToolInput> = {
  id: 'error.masked-check',
  on: 'tool',
  matches:
    'a test, build or lint command piped into head/tail/grep (its exit code the filter\'s, 0) whose output says it failed ("--- FAIL:", "3 failed", "114 fail", "1 issues", "error TS2307", "task failed", "error: ...")',
  makes:
    'what `bash.command` makes for a failed check, once per run: an ERROR with the first line that says what failed (relative paths, the program named when it could not parse its arguments), fixed by a later green run of the same operation',
  why: 'Claude Code pipes long checks into `tail`, so the log records exit 0 for a failing run; the failure is still the problem the session met',
  final: true,
  match: ({ step }) => {
    const cmd = command(step);
    if (!cmd || !step.answered || step.isError || exitCode(step.result) !== 0 || !MASKING_PIPE.test(cmd)) return false;
    const checked = commandSegments(cmd).filter((seg) => !/^(?:head|tail|grep|less|more|tee|cat|sed|awk)\b/.test(seg));
    if (checked.some((seg) => TARGETED.test(seg))) return false;
    return checked.some((seg) => TEST_RUNNER.test(seg) || CHECK.test(seg)) && checkFailedInOutput(step.result);
  },
  // Below the 0.9 of a check that exited non-zero: the block lists the problems the session stated first.
  make: ({ step }, state) => bashFacts(step, state, { failed: true, confidence: 0.85, most: 1 }),
  examples: {
    yes: [
      toolStep(
        'Bash',
        { command: 'mise run lint 2>&1 | head -80' },
        '[lint] $ golangci-lint run ./...\ncmd/entire/cli/hooks.go:189:19: Error return value of `paths.ReadCurrentSession` is not checked (errcheck)\n1 issues:\n* errcheck: 1\n[lint] ERROR task failed',
      ),
      toolStep('Bash', { command: 'rtk bun run test 2>&1 | head -100' }, "error: unrecognized subcommand 'bun'\n\nUsage: rtk [OPTIONS] <COMMAND>"),
    ],
    no: [
      toolStep('Bash', { command: 'mise run lint 2>&1 | head -30' }, '[lint] $ golangci-lint run ./...\n0 issues.'),
      toolStep('Bash', { command: 'bun run test 2>&1 | tail -5' }, ' 1329 pass\n 0 fail\nRan 1329 tests across 170 files.'),
      toolStep('Bash', { command: 'grep -rn error src | head -20' }, 'error: x'),
      toolStep('Bash', { command: 'go test ./strategy/ -run "TestSaveChanges_NoState" -v 2>&1 | tail -30' }, '--- FAIL: TestSaveChanges_NoState (0.01s)\nFAIL'),
    ],
  },
};

/** The first line of a commit's message (heredoc or -m). */
function commitMessageOf(raw: string): string | undefined {
  const heredoc = /<<\s*'?(\w+)'?\s*\n\s*(.+)/.exec(raw);
  const inline = /\s-[a-z]*m\s+(["'])([\s\S]+?)\1/.exec(raw);
  return (heredoc?.[2] ?? inline?.[2])?.split('\n')[0].trim() || undefined;
}

const unansweredCommit: Rule<ToolInput> = {
  id: 'pending.unanswered-commit',
  on: 'tool',
  matches: 'a `git commit` call that never got a result (the log ends on it, or it was interrupted)',
  makes: 'a pending TASK "Commit: <first line of the message>", settled by a later commit that goes through',
  why: 'the session stopped before the commit was seen to go through: the resuming engineer must check it and commit',
  final: true,
  match: ({ step }) => !step.answered && /\bgit\s+commit\b/.test(command(step)) && commitMessageOf(command(step)) !== undefined,
  make: ({ step }, state) => blockedCommitFacts(command(step), state, step.uuid),
  examples: {
    yes: [toolStep('Bash', { command: 'git commit -m "$(cat <<\'EOF\'\nRename agent-plugins to skills\n\nCo-Authored-By: Claude\nEOF\n)"' }, '', { answered: false })],
    no: [toolStep('Bash', { command: 'git commit -m "Rename agent-plugins to skills"' }, '[main 19729ce] Rename agent-plugins to skills')],
  },
};

/** Tool rules of finished and open work, run before the older tool rules. */
export const WORK_TOOL_RULES: Rule<ToolInput>[] = [maskedCheck, unansweredCommit];

/** "Done. The issues fixed in each row are now sorted alphabetically." / "CLAUDE.md has been created with ...": a report in the passive. */
const PASSIVE_DONE =
  /^(?:(?:all\s+)?done[.!]\s+)?(?:the\s+)?(\S(?:(?:[^.!?:]|\.(?=\S)){0,80}?\S)?)\s+(?:has been|have been|is now|are now|was|were)\s+(?:now\s+|successfully\s+)?((?:[a-z]+ed|built|written|made|set up|split|rewritten)\b[^.!?]*)/i;
/** Not a report: what the log merely says about itself or a plan ("the file was read", "it was not ..."). */
const NOT_PASSIVE = /^(?:it|this|that|there|which|nothing|no\s|everything|all\s+(?:tests|checks)|the (?:file|test|tests|build|lint|change|changes))\b/i;

/** The passive report a turn's last reply opens with, as a done task's label (up to 14 words). */
export function passiveDone(text: string): string | undefined {
  const first = text
    .trim()
    .split('\n')[0]
    .replace(/\*\*|__|`/g, '')
    .trim();
  const m = PASSIVE_DONE.exec(first);
  if (!m || NOT_PASSIVE.test(m[1]) || /\s[-–—]\s/.test(m[1]) || /^un/i.test(m[2]) || /\b(?:not|never|n't)\b/i.test(m[0]) || m[1].split(/\s+/).length > 10) return undefined;
  const label = `${m[1].charAt(0).toUpperCase()}${m[1].slice(1)} ${m[2]}`;
  const words = `${m[1]} ${m[2]}`.split(/\s+/);
  return words.length >= 3 ? normaliseLabel(clipWords(label.replace(/\s+/g, ' ').replace(/[,;:]$/, ''), 14)) : undefined;
}

const passiveReport: Rule<TextInput> = {
  id: 'report.passive-done',
  on: 'text',
  matches:
    'a turn\'s last reply that opens with a report in the passive: "Done. The issues fixed in each row are now sorted alphabetically.", "CLAUDE.md has been created with ..." (not "it was", not a negation)',
  makes: 'a done TASK "<what> <participle> ..." (up to 14 words); nothing in a turn that moved the session\'s own task list',
  why: 'a reply that reports its work in the passive names the work as a person would ("Issues sorted alphabetically")',
  toolSessionsOnly: true,
  match: ({ step, final }) => final && step.role === 'assistant' && passiveDone(step.text) !== undefined,
  make: ({ step }, state) => {
    reportedDone(state, [passiveDone(step.text)!], step.uuid);
  },
  examples: {
    yes: [
      textStep('Done. The issues fixed in each row are now sorted alphabetically by their summary text.'),
      textStep('CLAUDE.md has been created with comprehensive documentation of the TODO app project.'),
    ],
    no: [
      textStep('The file was read, now let me edit it.'),
      textStep('Done. Nothing has been changed yet.'),
      textStep('The tests are now passing.', false),
      textStep('Good - duplicate helpers are unused since the shared component handles them.'),
    ],
  },
};

/** Text rules of finished work, run before the older text rules (none is final). */
export const WORK_TEXT_RULES: Rule<TextInput>[] = [passiveReport];
