// Rules on tool calls: what the calls themselves prove. Files changed, created and deleted; the
// session's task list (TodoWrite, TaskCreate/TaskUpdate); commits, pushes and pull requests; the
// plan the user approved; answers to AskUserQuestion; subagent reports; edits the user rejected.

import { basename } from 'node:path';
import type { ToolStep } from '../session-turns.js';
import { bashFacts, commandSegments } from '../bash-facts.js';
import { CHANGE_TOOLS, agentFacts, answerFacts, fileFacts, taskToolFacts, todoFacts, toolPaths } from '../tool-facts.js';
import { noteChange, parentTask, pathLabel, type ExtractState } from '../extract-state.js';
import { clipWords, normaliseLabel, sameThing, sentences } from '../labels.js';
import { toolStep, type Rule, type ToolInput } from './engine.js';
import { isPlanFile, parsePlan } from './plan.js';

const REJECTED = /user doesn't want to proceed|tool use was rejected/i;

/** The shell tools: Bash, and PowerShell on the Windows client (from 2.1.2xx; seen in 2.1.227 logs, `git push`, `gh pr create` as in Bash). */
const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);

function command(step: ToolStep): string {
  return SHELL_TOOLS.has(step.name) && typeof step.input.command === 'string' ? step.input.command : '';
}

function ok(step: ToolStep): boolean {
  return step.answered && !step.isError && !/^(?:Error: )?Exit code [1-9]/.test(step.result);
}

/** What the user said when rejecting a call ("... the user said:\nconsolidate this code"). */
function rejectionWords(result: string): string {
  const said = /the user said:\s*([\s\S]+)$/i.exec(result)?.[1] ?? '';
  return clipWords(said.replace(/\s+/g, ' ').trim(), 8);
}

const editRejected: Rule<ToolInput> = {
  id: 'error.edit-rejected',
  on: 'tool',
  matches: 'an Edit, Write or NotebookEdit the user rejected',
  makes: 'an ERROR "<file> edit rejected by user: <what they said>" (settled: the user answered it)',
  why: 'a rejected edit is a wrong turn the resuming engineer must not repeat',
  final: true,
  match: ({ step }) => CHANGE_TOOLS.has(step.name) && REJECTED.test(step.result),
  make: ({ step }, state) => {
    const path = toolPaths(step.name, step.input)[0];
    if (!path) return;
    const said = rejectionWords(step.result);
    state.builder.mention('ERROR', `${basename(path)} edit rejected by user${said ? `: ${said}` : ''}`, {
      confidence: 0.95,
      turn: state.turn,
      uuid: step.resultUuid ?? step.uuid,
      status: 'completed',
      fuzzy: false,
    });
  },
  examples: {
    yes: [
      toolStep(
        'Edit',
        { file_path: '/repo/hook_registry.go' },
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nconsolidate this code",
        { isError: true },
      ),
    ],
    no: [toolStep('Edit', { file_path: '/repo/a.go' }, 'The file /repo/a.go has been updated.')],
  },
};

const fileChanged: Rule<ToolInput> = {
  id: 'file.changed',
  on: 'tool',
  matches: 'Edit, MultiEdit, Write or NotebookEdit on a file',
  makes: 'a FILE, modified when the call succeeded ("created" when Write made it), and an ERROR when the call failed',
  why: 'the files a session changed are what it leaves behind',
  final: true,
  match: ({ step }) => CHANGE_TOOLS.has(step.name) && toolPaths(step.name, step.input).length > 0,
  make: ({ step }, state) => fileFacts(step, toolPaths(step.name, step.input), state),
  examples: {
    yes: [toolStep('Write', { file_path: '/repo/src/lib.rs', content: 'x' }, 'File created successfully', { sidecar: { type: 'create' } })],
    no: [toolStep('Read', { file_path: '/repo/src/lib.rs' })],
  },
};

const planWritten: Rule<ToolInput> = {
  id: 'plan.written',
  on: 'tool',
  client: 'from 2.1.x plan mode writes the plan to a file (~/.claude/plans/<slug>.md or one the session names) and ExitPlanMode carries no plan (seen in 2.1.38 logs)',
  matches: 'a Write of a plan file (under plans/, or plan.md)',
  makes: 'the FILE as file.changed does, and a done TASK "Plan written to <path>" (the plan\'s title after it once ExitPlanMode approves it); the plan is kept for plan.approved',
  why: 'a written plan or design doc is finished work; its choices and steps count once the user approved it',
  final: true,
  match: ({ step }) => step.name === 'Write' && typeof step.input.file_path === 'string' && isPlanFile(step.input.file_path) && typeof step.input.content === 'string',
  make: ({ step }, state) => {
    state.planText = step.input.content as string;
    fileFacts(step, toolPaths(step.name, step.input), state);
    if (!ok(step)) return;
    const path = pathLabel(step.input.file_path as string, step.cwd ?? state.cwd, state.cwd);
    // Plan mode writes under ~/.claude/plans: the file's name says nothing to whoever resumes.
    const where = path.startsWith('/') || path.startsWith('~') ? '' : ` to ${path}`;
    state.planTask = state.builder.mention('TASK', `Plan written${where}`, { confidence: 1, turn: state.turn, uuid: step.uuid, status: 'completed', fuzzy: false });
  },
  examples: {
    yes: [toolStep('Write', { file_path: '/repo/plan.md', content: '# Plan: X\n' }, 'File created successfully', { sidecar: { type: 'create' } })],
    no: [toolStep('Write', { file_path: '/repo/src/plan.ts', content: 'x' }, 'ok')],
  },
};

const fileRead: Rule<ToolInput> = {
  id: 'file.read',
  on: 'tool',
  matches: 'Read, NotebookRead, Glob, Grep or LS naming a path',
  makes: 'a FILE without a status (read, not changed)',
  why: 'what the session looked at is context, below what it changed',
  final: true,
  match: ({ step }) => !CHANGE_TOOLS.has(step.name) && toolPaths(step.name, step.input).length > 0,
  make: ({ step }, state) => fileFacts(step, toolPaths(step.name, step.input), state),
  examples: { yes: [toolStep('Read', { file_path: '/repo/a.go' })], no: [toolStep('Bash', { command: 'ls' })] },
};

/** `rm a b`, `git rm a`: paths of the project the command deletes (no temp files, no globs). */
export function deletedPaths(cmd: string): string[] {
  const out: string[] = [];
  for (const segment of commandSegments(cmd)) {
    const m = /^(?:git\s+rm|rm)\s+(.+)$/.exec(segment);
    if (!m) continue;
    for (const word of m[1].split(/\s+/)) {
      if (word.startsWith('-') || /[*?$`<>]/.test(word) || /^~/.test(word)) continue;
      out.push(word.replace(/^['"]|['"]$/g, ''));
    }
  }
  return out;
}

/** The deleted paths inside the project, labelled as the tools label them (a temp file outside it is no change). */
function projectDeletions(step: ToolStep, cwd?: string): string[] {
  return deletedPaths(command(step))
    .map((path) => pathLabel(path, step.cwd ?? cwd, cwd))
    .filter((label) => !label.startsWith('/') && label !== '.' && !BUILD_OUTPUT.test(label));
}

/** Build output a clean removes (`rm -rf bin obj out`): not a change of the project's files. */
const BUILD_OUTPUT = /(?:^|\/)(?:bin|obj|out|dist|build|target|node_modules|coverage|__pycache__|\.next)\/?$/;

const fileDeleted: Rule<ToolInput> = {
  id: 'file.deleted',
  on: 'tool',
  matches: 'a successful `rm` or `git rm` of project paths',
  makes: 'a FILE per path, modified, detail "deleted"',
  why: 'a deletion changes the project as much as an edit',
  match: ({ step }) => ok(step) && projectDeletions(step).length > 0,
  make: ({ step }, state) => {
    for (const label of projectDeletions(step, state.cwd)) {
      const file = state.builder.mention('FILE', label, { confidence: 0.95, turn: state.turn, uuid: step.uuid, status: 'modified', detail: 'deleted', fuzzy: false });
      if (file) noteChange(state, file);
    }
  },
  examples: {
    yes: [toolStep('Bash', { command: 'rm -rf src/utils.py tests/' }, '')],
    no: [
      toolStep('Bash', { command: 'rm -f /tmp/out.txt' }, ''),
      toolStep('Bash', { command: 'rm -rf out bin obj tests/App.Tests/bin' }, ''),
      toolStep('Bash', { command: 'rm /repo/a.py' }, '', { cwd: undefined, answered: false }),
      toolStep('Bash', { command: 'rm missing.txt' }, 'Exit code 1\nrm: missing.txt: No such file', { isError: true }),
    ],
  },
};

const prCreated: Rule<ToolInput> = {
  id: 'work.pr-created',
  on: 'tool',
  matches: 'a successful `gh pr create`',
  makes: 'a done TASK "PR created: <url>" ("Draft PR" with --draft)',
  why: 'a pull request is finished, visible work',
  match: ({ step }) => ok(step) && /\bgh\s+pr\s+create\b/.test(command(step)),
  make: ({ step }, state) => {
    const url = /https:\/\/\S+\/pull\/\d+/.exec(step.result)?.[0];
    const title = /--title\s+(["'])(.+?)\1/.exec(command(step))?.[2];
    const label = `${/--draft\b/.test(command(step)) ? 'Draft PR' : 'PR'} created: ${url ?? title ?? ''}`.trim();
    state.builder.link(state.builder.mention('TASK', label, { confidence: 1, turn: state.turn, uuid: step.uuid, status: 'completed', fuzzy: false }), parentTask(state), 'PART_OF');
  },
  examples: {
    yes: [toolStep('Bash', { command: 'gh pr create --draft --title "Consolidate logs" --body x' }, 'https://github.com/o/r/pull/185')],
    no: [toolStep('Bash', { command: 'gh pr create --title x' }, 'Exit code 1\nbase branch does not exist', { isError: true })],
  },
};

const pushed: Rule<ToolInput> = {
  id: 'work.pushed',
  on: 'tool',
  matches: 'a successful `git push` naming or creating a branch',
  makes: 'a done TASK "Pushed branch <branch>"',
  why: 'a push is finished work others can see',
  match: ({ step }) => ok(step) && /\bgit\s+push\b/.test(command(step)) && pushedBranch(step) !== undefined,
  make: ({ step }, state) => {
    state.builder.mention('TASK', `Pushed branch ${pushedBranch(step)}`, { confidence: 1, turn: state.turn, uuid: step.uuid, status: 'completed', fuzzy: false });
  },
  examples: {
    yes: [toolStep('Bash', { command: 'git push -u origin alex/ent-221' }, "branch 'alex/ent-221' set up to track 'origin/alex/ent-221'.")],
    no: [toolStep('Bash', { command: 'git push' }, 'Exit code 128\nfatal: The current branch x has no upstream branch.', { isError: true })],
  },
};

function pushedBranch(step: ToolStep): string | undefined {
  const args = /\bgit\s+push\s+(?:-\S+\s+)*(\S+)\s+(?:HEAD:)?([^\s&;|]+)/.exec(command(step));
  if (args && !args[2].startsWith('-')) return args[2];
  return /->\s+(\S+)/.exec(step.result)?.[1] ?? /\[new branch\]\s+(\S+)/.exec(step.result)?.[1];
}

const planApproved: Rule<ToolInput> = {
  id: 'plan.approved',
  on: 'tool',
  client: 'ExitPlanMode carries the plan in its input up to 2.1.x; later clients name the plan file in toolUseResult.filePath (seen in 2.1.38 logs)',
  matches: 'ExitPlanMode the user approved',
  makes: 'a done TASK "Plan approved: <the plan\'s title>" ("Plan written to <path> and approved: <title>" when plan.written made one)',
  why: 'an approved plan settles what the session will do',
  match: ({ step }) => step.name === 'ExitPlanMode' && step.answered && !step.isError && !REJECTED.test(step.result),
  make: ({ step }, state) => {
    const text = typeof step.input.plan === 'string' ? step.input.plan : (state.planText ?? '');
    const plan = parsePlan(text);
    const title = plan.title ? `: ${clipWords(plan.title, 10)}` : '';
    // The plan file written for it and its approval are one piece of work.
    const written = typeof step.input.plan === 'string' ? undefined : state.planTask;
    if (written) written.label = normaliseLabel(`${written.label} and approved${title}`);
    else state.builder.mention('TASK', normaliseLabel(`Plan approved${title}`), { confidence: 1, turn: state.turn, uuid: step.uuid, status: 'completed', fuzzy: false });
    // The plan the user approved: its choices are decisions, its steps the work to do.
    for (const choice of plan.choices) state.builder.mention('DECISION', choice, { confidence: 0.85, turn: state.turn, uuid: step.uuid });
    for (const task of plan.steps) state.builder.mention('TASK', task, { confidence: 0.85, turn: state.turn, uuid: step.uuid, status: 'pending' });
  },
  examples: {
    yes: [
      toolStep(
        'ExitPlanMode',
        { plan: '# Plan: Setup Code Quality Tools\n\n## No-gos\n- No CI/CD integration yet (separate task)\n\n## Task 1: Install quality tools and configure Credo\n' },
        'User has approved your plan.',
      ),
    ],
    no: [toolStep('ExitPlanMode', { plan: '# Plan' }, "The user doesn't want to proceed with this tool use. The tool use was rejected", { isError: true })],
  },
};

/** The tracker's lines: "✓ Created issue: X\n  Title: T", "○ X · T [", "✓ Closed X: why", "✓ Added dependency: A depends on B". */
function trackerFacts(step: ToolStep, state: ExtractState): void {
  const issues = (state.issues ??= new Map());
  const out = step.result;
  const cmd = command(step);
  for (const m of out.matchAll(/^[○●◐✓]?\s*([\w-]+-[\w]+(?:\.\d+)*)\s+(?:\[[A-Z]+\]\s+)?·\s+(.+?)\s+\[/gm)) issues.set(m[1], m[2].trim());
  const task = (label: string, status: 'completed' | 'pending' | 'in_progress', key?: string) => {
    const node = state.builder.mention('TASK', normaliseLabel(label), { confidence: 1, turn: state.turn, uuid: step.uuid, status, fuzzy: false });
    if (node && key) state.tasksById.set(`issue:${key}`, node);
    return node;
  };
  const created = /Created issue:\s*(\S+)\s*\n\s*Title:\s*(.+)/.exec(out);
  if (created) {
    const id = created[1];
    // The command's own --title is exact; the output's Title line may run into what follows.
    const title = /--title[= ](["'])(.+?)\1/.exec(cmd)?.[2] ?? created[2];
    issues.set(id, title.trim());
    const type = /--type[= ](\w+)/.exec(cmd)?.[1] ?? 'issue';
    task(`Created ${type} ${id}: ${title.trim()}`, 'completed');
    if (type !== 'epic') {
      // A step of the plan the item tracks takes the tracker's id into its label.
      const planned = state.builder.find('TASK', (n) => n.status === 'pending' && sameThing(n.label, title.trim()));
      if (planned) {
        planned.label = normaliseLabel(`${title.trim()} (${id})`);
        state.tasksById.set(`issue:${id}`, planned);
      } else task(`${title.trim()} (${id})`, 'pending', id);
    }
  }
  const dep = /Added dependency:\s*(.+?)(?:\s*\(|$)/m.exec(out);
  if (dep) task(`Added dependency: ${dep[1]}`, 'completed');
  const update = /\bbd\s+update\s+(\S+)\s+.*--status[= ]in_progress/.exec(cmd);
  if (update) {
    const known = state.tasksById.get(`issue:${update[1]}`);
    if (known) state.builder.advance(known, 'in_progress', state.turn, step.uuid);
    else task(`${update[1]}: ${issues.get(update[1]) ?? ''}`, 'in_progress', update[1]);
  }
  for (const m of out.matchAll(/Closed\s+([\w-]+-[\w]+(?:\.\d+)*):/g)) {
    const known = state.tasksById.get(`issue:${m[1]}`);
    if (known) {
      state.builder.advance(known, 'completed', state.turn, step.uuid);
      // "spotter-dov: Unified transcript ..." once closed says so, as the tracker did.
      if (known.label.startsWith(`${m[1]}:`)) known.label = `Closed ${known.label}`;
    } else task(`Closed ${m[1]}: ${issues.get(m[1]) ?? ''}`, 'completed', m[1]);
  }
}

const tracker: Rule<ToolInput> = {
  id: 'work.issue-tracker',
  on: 'tool',
  matches: 'a successful issue-tracker command (beads `bd create`, `bd update --status in_progress`, `bd close`, `bd dep add`)',
  makes:
    'a done TASK "Created <type> <id>: <title>" and a pending TASK "<title> (<id>)" that update and close move on ("Closed <id>: <title>" for one first seen in progress or closed); "Added dependency: A depends on B"',
  why: "the tracker is the session's task list when it keeps one outside the client",
  match: ({ step }) => ok(step) && /\bbd\s+(?:create|update|close|dep\s+add|show)\b/.test(command(step)),
  make: ({ step }, state) => trackerFacts(step, state),
  examples: {
    yes: [toolStep('Bash', { command: 'bd create --title="Add mix quality alias" --type=task' }, '✓ Created issue: spotter-0p7.2\n  Title: Add mix quality alias\n  Priority: P2')],
    no: [toolStep('Bash', { command: 'bd ready' }, '📋 Ready work (8 issues with no blockers)')],
  },
};

const bash: Rule<ToolInput> = {
  id: 'bash.command',
  on: 'tool',
  matches: 'any other shell command',
  makes:
    'TEST runs with counts, DEPENDENCY installs, ENVIRONMENT versions, commits as done TASKs, and ERRORs for failed checks (tests, builds, lints, commits, pushes) with the lines that say what failed; a later green run of the same operation fixes them',
  why: 'a check that failed is a problem; an exploratory command that found nothing is not',
  final: true,
  match: ({ step }) => SHELL_TOOLS.has(step.name),
  make: ({ step }, state) => bashFacts(step, state),
  examples: {
    yes: [
      toolStep('Bash', { command: 'go test ./...' }, 'Exit code 1\n--- FAIL: TestHooks (0.00s)\n    hooks_test.go:12: InstallHooks() count = 7, want 6\nFAIL', { isError: true }),
      toolStep('PowerShell', { command: 'dotnet build -c Release' }, 'Exit code 1\nerror CS0117: LocalizationLoader does not contain a definition for Load', { isError: true }),
    ],
    no: [toolStep('Bash', { command: 'grep -r foo src' }, 'Exit code 1', { isError: true })],
  },
};

const todoWrite: Rule<ToolInput> = {
  id: 'task.todowrite',
  on: 'tool',
  client: 'TodoWrite is the task list up to 2.1.x; off by default in 2.1.332',
  matches: 'TodoWrite',
  makes: 'a TASK per todo, with its latest status; an open todo a later list leaves out is dropped (each call sends the whole list)',
  why: "the session's own task list is first-hand",
  final: true,
  match: ({ step }) => step.name === 'TodoWrite',
  make: ({ step }, state) => {
    todoFacts(step, state);
    state.taskListTurn = state.turn;
  },
  examples: {
    yes: [toolStep('TodoWrite', { todos: [{ content: 'Port math_utils module', status: 'completed', activeForm: 'Porting' }] })],
    no: [toolStep('TodoWrite', { todos: [] })],
  },
};

/** "so nil means ...", "since the log file is now fixed", "to DRY up ...": the reason a task is done one way. */
const TASK_REASON = /\b(?:so (?:that )?(?!far\b|I\b|we\b|you\b)|since|because|to (?:avoid|prevent|keep|DRY up|reduce|simplify)|instead of|rather than)\b/i;

/** The sentences of a TaskCreate description that say how the task is done and why. */
export function taskReasons(description: string): string[] {
  return sentences(description.replace(/```[\s\S]*?```/g, ' '))
    .map((s) =>
      s
        .replace(/`/g, '')
        .replace(/^\s*(?:[-*]|\d+[.)])\s+/, '')
        .trim(),
    )
    .filter((s) => TASK_REASON.test(s) && !/\?\s*$/.test(s) && s.split(/\s+/).length >= 4 && s.length < 300)
    .map((s) => normaliseLabel(clipWords(s, 16)));
}

const taskReason: Rule<ToolInput> = {
  id: 'decision.task-reason',
  on: 'tool',
  client: 'TaskCreate carries a subject and a description (2.1.x)',
  matches:
    'a sentence of a TaskCreate description that says how the task is done and why: "Use pointer so nil means active/unclean exit", "Pass empty string when unknown since the log file is now fixed", "X instead of Y"',
  makes: 'a DECISION labelled with the sentence (up to 16 words)',
  why: 'a session that plans with TaskCreate writes its choices into the descriptions, and nowhere else',
  match: ({ step }) => step.name === 'TaskCreate' && typeof step.input.description === 'string' && taskReasons(step.input.description).length > 0,
  make: ({ step }, state) => {
    for (const label of taskReasons(step.input.description as string)) state.builder.mention('DECISION', label, { confidence: 0.8, turn: state.turn, uuid: step.uuid });
  },
  examples: {
    yes: [
      toolStep(
        'TaskCreate',
        { subject: 'Add EndedAt field to session State struct', description: 'Add `EndedAt *time.Time` field to the State struct. Use pointer so nil means active/unclean exit.' },
        'Task #1 created successfully',
      ),
    ],
    no: [
      toolStep('TaskCreate', { subject: 'Run tests', description: 'Run the full test suite and fix what fails.' }, 'Task #4 created successfully'),
      toolStep('TaskCreate', { subject: 'Ask', description: 'So far, what should we do?' }, 'Task #5 created successfully'),
    ],
  },
};

const taskTools: Rule<ToolInput> = {
  id: 'task.task-tools',
  on: 'tool',
  client: 'TaskCreate/TaskUpdate replace TodoWrite by default (2.1.332; state in ~/.claude/tasks/<sessionId>/)',
  matches: 'TaskCreate, TaskUpdate',
  makes: 'a pending TASK per TaskCreate; TaskUpdate moves its status, renames it (subject) or removes it (status "deleted")',
  why: "the session's own task list is first-hand",
  final: true,
  match: ({ step }) => step.name === 'TaskCreate' || step.name === 'TaskUpdate',
  make: ({ step }, state) => {
    taskToolFacts(step, state);
    state.taskListTurn = state.turn;
  },
  examples: {
    yes: [toolStep('TaskCreate', { subject: 'Add mix quality alias', description: 'x' }, 'Task #2 created successfully: Add mix quality alias')],
    no: [toolStep('TaskUpdate', { taskId: '9', status: 'completed' }, 'Updated task #9 status')],
  },
};

const agentReport: Rule<ToolInput> = {
  id: 'agent.report',
  on: 'tool',
  client: 'Task up to 2.1.x, Agent later; 2.1.332 wraps the report in <tools-used-before-summary>',
  matches: 'Task or Agent (a subagent)',
  makes: 'an AGENT with its status and the first sentence of its report',
  why: "a subagent's report is work done for the session",
  final: true,
  match: ({ step }) => step.name === 'Task' || step.name === 'Agent',
  make: ({ step }, state) => agentFacts(step, state),
  examples: {
    yes: [
      toolStep('Agent', { description: 'Research credo setup', prompt: 'x', subagent_type: 'general-purpose' }, 'Credo is installed with mix deps.'),
      toolStep(
        'Agent',
        { description: 'Find the config loader', prompt: 'x' },
        '<tools-used-before-summary>Grep, Read</tools-used-before-summary>\nThe loader lives in src/config/load.ts and reads TOML.',
      ),
    ],
    no: [toolStep('Agent', { prompt: '' })],
  },
};

const answered: Rule<ToolInput> = {
  id: 'decision.user-answer',
  on: 'tool',
  matches: 'AskUserQuestion answered',
  makes: 'a DECISION per answer: "<header>: <answer> (<option description>)"; an answer in the user\'s own words adds "instead of <the options offered>"',
  why: "the user's answer settles the question it was asked",
  final: true,
  match: ({ step }) => step.name === 'AskUserQuestion' && step.answered && !step.isError,
  make: ({ step }, state) => answerFacts(step, state),
  examples: {
    yes: [
      toolStep(
        'AskUserQuestion',
        { questions: [{ question: 'Which rig do these beads belong to?', header: 'Rig prefix', options: [{ label: 'No rig', description: "Don't use a rig prefix" }] }] },
        'User has answered your questions: "Which rig do these beads belong to?"="No rig". You can now continue.',
      ),
      toolStep(
        'AskUserQuestion',
        {
          questions: [
            {
              question: 'Pre-commit hook blocks on pre-existing issues. How should we proceed?',
              header: 'Commit',
              options: [
                { label: 'Skip hook (--no-verify)', description: 'x' },
                { label: 'Fix pre-existing issues', description: 'y' },
              ],
            },
          ],
        },
        'User has answered your questions: "Pre-commit hook blocks on pre-existing issues. How should we proceed?"="main was clean; fix the issues". You can now continue.',
      ),
    ],
    no: [toolStep('AskUserQuestion', { questions: [] }, '', { answered: false })],
  },
};

/** Tool rules in the order the engine runs them. */
export const TOOL_RULES: Rule<ToolInput>[] = [
  editRejected,
  planWritten,
  fileChanged,
  fileRead,
  fileDeleted,
  prCreated,
  pushed,
  planApproved,
  tracker,
  bash,
  todoWrite,
  taskReason,
  taskTools,
  agentReport,
  answered,
];
