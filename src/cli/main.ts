// The cmv command line: commander wiring only. Each command lives in its own file and calls
// one core function; errors are mapped to exit codes here.

import { Argument, Command, CommanderError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import chalk from 'chalk';
import { isCmvError } from '../errors.js';
import { exitCodeFor, EXIT_OK } from './exit-codes.js';
import { Output, forTerminal } from './output.js';
import type { TrimCommandOptions } from './commands/trim.js';
import type { BreakevenCommandOptions } from './commands/breakeven.js';
import type { AnalyzeCommandOptions } from './commands/analyze.js';
import type { UiOptions } from './commands/ui.js';
import type { HookInstallOptions } from './commands/hook.js';
import { INSTALL_LINES, SHELLS } from './commands/completion.js';
import type { GraphCommandOptions } from './commands/graph.js';
import type { ResumeCommandOptions } from './commands/resume.js';
import type { CompactCommandOptions } from './commands/compact.js';
import type { SnapshotCommandOptions } from './commands/snapshot.js';
import type { BranchCommandOptions } from './commands/branch.js';
import type { ListCommandOptions } from './commands/list.js';
import type { ExportCommandOptions } from './commands/export.js';

export function packageVersion(): string {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

function examples(lines: string[]): string {
  return `Examples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** Builds the command tree (also used to generate shell completions). */
export function buildProgram(run: (action: () => Promise<number | void>) => Promise<void>): Command {
  const program = new Command('cmv')
    .description('Version, trim and analyse Claude Code sessions: keep what a session learned, drop the bulk.')
    .version(packageVersion(), '-V, --version')
    .option('--color', 'colour even when not on a terminal (also FORCE_COLOR=1)')
    .option('--no-color', 'disable colour (also NO_COLOR=1)')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run `cmv --help` for usage)')
    .addHelpText(
      'before',
      examples(['cmv                    # the dashboard, on a terminal', 'cmv sessions', 'cmv stats latest', 'cmv stats 3f2a --json', 'cmv stats ./sample-sessions/coding.jsonl']),
    );

  program
    .command('sessions')
    .description('list every Claude Code session found, newest first')
    .option('-p, --project <text>', 'only sessions whose project path contains TEXT')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv sessions', 'cmv sessions --project my-app', 'cmv sessions --json']))
    .action((opts: { project?: string; json?: boolean }) => run(async () => (await import('./commands/sessions.js')).sessionsCommand(opts, new Output(opts))));

  program
    .command('stats')
    .description('show where the tokens of a session go')
    .argument('<session>', 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv stats latest', 'cmv stats 3f2a9c1e', 'cmv stats ~/.claude/projects/-home-me-app/3f2a9c1e-….jsonl --json']))
    .action((session: string, opts: { json?: boolean }) => run(async () => (await import('./commands/stats.js')).statsCommand(session, new Output(opts))));

  program
    .command('trim')
    .description('trim a session: keep every user and assistant text and every tool pairing, stub the bulk')
    .argument('<session>', 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`')
    .option('-o, --output <file>', 'write the trimmed log to FILE instead of a new session')
    .option('--in-place', 'replace the session log itself (a backup is kept; `cmv restore` undoes it)')
    .option('--force', 'with -o: overwrite FILE if it exists')
    .option('--threshold <chars>', 'stub tool results longer than CHARS characters (default: trim.threshold of `cmv config`, 1000)')
    .option('--budget <tokens>', 'then evict old tool episodes until the session fits TOKENS; fails if it cannot')
    .option('--keep-history', 'keep the lines before the last compaction boundary')
    .option('--strip-user-images', 'stub images the user pasted too')
    .option('--project-dir <dir>', "the session's project lives at DIR now (a moved checkout, another machine): its files show which Edit/Write inputs applied")
    .option('--dry-run', 'report what would be removed, write nothing')
    .option('--json', 'print JSON')
    .addHelpText(
      'before',
      examples([
        'cmv trim latest                      # new session; prints `claude --resume <id>`',
        'cmv trim 3f2a --dry-run              # what would go',
        'cmv trim 3f2a -o trimmed.jsonl --json',
        'cmv trim 3f2a --in-place             # backup first; undo with `cmv restore 3f2a`',
        'cmv trim 3f2a --budget 40000         # also evict old episodes to fit 40k tokens',
      ]),
    )
    .action((session: string, opts: TrimCommandOptions & { json?: boolean }) => run(async () => (await import('./commands/trim.js')).trimCommand(session, opts, new Output(opts))));

  program
    .command('verify')
    .description('prove a trimmed log kept every text and tool pairing of its original; exit 0 only when it did')
    .argument('<original>', 'the original session')
    .argument('<trimmed>', 'the trimmed session')
    .option('--client <version>', 'the Claude Code version that will resume it (default: `claude --version` on PATH; none found: every version cmv knows)')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv verify original.jsonl trimmed.jsonl', 'cmv verify 3f2a 9c1e --client 2.1.332', 'cmv verify 3f2a 9c1e --json']))
    .action((original: string, trimmed: string, opts: { json?: boolean; client?: string }) =>
      run(async () => (await import('./commands/verify.js')).verifyCommand(original, trimmed, opts, new Output(opts))),
    );

  program
    .command('restore')
    .description('put back a session as it was before its in-place trims, keeping the lines written since (never toggles)')
    .argument('<session>', 'the session changed in place')
    .option('--list', 'list the backups of the session, newest first')
    .option('--from <backup>', 'restore this backup (an id from --list) instead of the first of the current run')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv restore 3f2a', 'cmv restore 3f2a --list', 'cmv restore 3f2a --from 20261126-041502']))
    .action((session: string, opts: { json?: boolean; list?: boolean; from?: string }) => run(async () => (await import('./commands/restore.js')).restoreCommand(session, opts, new Output(opts))));

  program
    .command('breakeven')
    .description('when a trim pays for itself under prompt caching: the logged calls replayed at list prices, then projected')
    .argument('<session>', 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`')
    .option('--model <model>', 'price every call as MODEL (opus-4.6, sonnet-4.5, claude-haiku-4-5, ...) instead of the model the log names (default: model of `cmv config`)')
    .option('--models <file>', 'model prices and windows overriding the built-in table (see README)')
    .option('--at <call>', 'trim after main call CALL of the log instead of now; the calls after it are replayed')
    .option('--threshold <chars>', 'trim: stub tool results longer than CHARS characters (default: trim.threshold of `cmv config`, 1000)')
    .option('--budget <tokens>', 'trim: then evict old tool episodes until the session fits TOKENS')
    .option('--keep-history', 'trim: keep the lines before the last compaction boundary')
    .option('--strip-user-images', 'trim: stub images the user pasted too')
    .option('--json', 'print JSON')
    .addHelpText(
      'before',
      examples([
        'cmv breakeven latest',
        'cmv breakeven 3f2a --at 40            # had I trimmed after call 40',
        'cmv breakeven 3f2a --model sonnet-4.5 # at Sonnet prices',
        'cmv breakeven ./session.jsonl --json',
      ]),
    )
    .action((session: string, opts: BreakevenCommandOptions & { json?: boolean }) => run(async () => (await import('./commands/breakeven.js')).breakevenCommand(session, opts, new Output(opts))));

  program
    .command('analyze')
    .description('trim and price every session of folders or globs (default: every Claude config dir), in parallel')
    .argument('[paths...]', 'session logs, folders (every .jsonl below) or globs')
    .option('-j, --jobs <n>', 'worker threads (default: the number of cores; a batch under 8 MB runs in one)')
    .option('--json', 'print JSON')
    .option('--csv', 'print one CSV row per file')
    .option('--md', 'print a Markdown report')
    .option('--svg <dir>', 'also write plots (reduction, break-even, cost curves) as SVG files to DIR')
    .option('--model <model>', 'price every call as MODEL instead of the model the log names (default: model of `cmv config`)')
    .option('--models <file>', 'model prices and windows overriding the built-in table')
    .option('--threshold <chars>', 'trim: stub tool results longer than CHARS characters (default: trim.threshold of `cmv config`, 1000)')
    .option('--keep-history', 'trim: keep the lines before the last compaction boundary')
    .option('--strip-user-images', 'trim: stub images the user pasted too')
    .addHelpText(
      'before',
      examples([
        'cmv analyze                           # every session in your Claude config dirs',
        'cmv analyze ~/.claude/projects/-home-me-app --md > report.md',
        "cmv analyze 'logs/**/*.jsonl' --jobs 4 --json",
        'cmv analyze ~/.claude/projects --svg plots/',
      ]),
    )
    .action((paths: string[], opts: AnalyzeCommandOptions) => run(async () => (await import('./commands/analyze.js')).analyzeCommand(paths, opts, new Output(opts))));

  program
    .command('ui')
    .description('the dashboard: projects, sessions and snapshots, token composition, trim preview, break-even (needs a terminal)')
    .option('--launch', 'Enter starts `claude --resume` in the session\'s folder instead of printing the command')
    .addHelpText('before', examples(['cmv ui', 'cmv                                  # the same, on a terminal', 'cmv ui --launch']))
    .action((opts: UiOptions) => run(async () => (await import('./commands/ui.js')).uiCommand(opts, new Output())));

  const hook = program
    .command('hook')
    .description('cmv inside Claude Code: snapshot and trim before compaction, and an optional size guard')
    .addHelpText(
      'before',
      examples([
        'cmv hook install                     # PreCompact hook in ~/.claude/settings.json',
        'cmv hook install --scope project --size-guard',
        'cmv hook status',
        'cmv hook restore 3f2a                # undo the last trim a hook made',
        'cmv hook uninstall',
      ]),
    );
  const scopeOption = () => new Option('--scope <scope>', 'user (~/.claude/settings.json), project (.claude/settings.json) or local (.claude/settings.local.json)').choices(['user', 'project', 'local']).default('user');
  hook
    .command('install')
    .description('register the PreCompact hook (and with --size-guard the PostToolUse size guard) in Claude Code\'s settings; other hooks are left alone')
    .addOption(scopeOption())
    .option('--size-guard', 'also trim when the log grew by hook.growthBytes since its last trim (checked after each tool call)')
    .option('--command <prefix>', 'how Claude Code should start cmv (default: this node and this cmv, by absolute path)')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv hook install', 'cmv hook install --scope project --size-guard', "cmv hook install --command 'npx cmv'"]))
    .action((opts: HookInstallOptions & { json?: boolean }) => run(async () => (await import('./commands/hook.js')).hookInstallCommand(opts, new Output(opts))));
  hook
    .command('uninstall')
    .description('remove cmv\'s hooks from Claude Code\'s settings')
    .addOption(scopeOption())
    .option('--size-guard-only', 'remove only the size guard')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv hook uninstall', 'cmv hook uninstall --scope project --size-guard-only']))
    .action((opts: { scope?: string; sizeGuardOnly?: boolean; json?: boolean }) => run(async () => (await import('./commands/hook.js')).hookUninstallCommand(opts, new Output(opts))));
  hook
    .command('status')
    .description('where the hooks are registered, the last trims they made with their savings, and recent problems')
    .option('--last <n>', 'show the last N trims (default 10)')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv hook status', 'cmv hook status --last 30 --json']))
    .action((opts: { last?: string; json?: boolean }) => run(async () => (await import('./commands/hook.js')).hookStatusCommand(opts, new Output(opts))));
  hook
    .command('restore')
    .description('put back a log as it was before the hooks\' trims, keeping lines written since (the size guard then waits for new growth)')
    .argument('<session>', 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv hook restore 3f2a', 'cmv hook restore latest']))
    .action((session: string, opts: { json?: boolean }) => run(async () => (await import('./commands/hook.js')).hookRestoreCommand(session, new Output(opts))));
  hook
    .command('run', { hidden: true })
    .description('what Claude Code runs (reads the hook event on stdin; always exits 0)')
    .argument('<kind>', 'pre-compact or size-guard')
    .action((kind: string) => run(async () => (await import('../hooks/hook-main.js')).hookMain(kind)));

  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish), generated from the commands themselves')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices([...SHELLS]))
    .addHelpText('before', examples(SHELLS.map((shell) => INSTALL_LINES[shell])))
    .action((shell: string, _opts: unknown, command: Command) => run(async () => (await import('./commands/completion.js')).completionCommand(shell, command.parent ?? command, new Output())));

  const config = program
    .command('config')
    .description('read and change cmv\'s settings ($XDG_CONFIG_HOME/cmv/config.json)')
    .addHelpText('before', examples(['cmv config list', 'cmv config set trim.threshold 2000', 'cmv config set hook.growthBytes 8MB', 'cmv config get model', 'cmv config unset model']));
  config
    .command('list')
    .description('every setting, its value and what it does')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv config list', 'cmv config list --json']))
    .action((opts: { json?: boolean }) => run(async () => (await import('./commands/config.js')).configListCommand(new Output(opts))));
  config
    .command('get')
    .description('print one setting')
    .argument('<key>', 'a setting, e.g. trim.threshold')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv config get trim.threshold']))
    .action((key: string, opts: { json?: boolean }) => run(async () => (await import('./commands/config.js')).configGetCommand(key, new Output(opts))));
  config
    .command('set')
    .description('change one setting (checked before it is written)')
    .argument('<key>', 'a setting, e.g. trim.threshold')
    .argument('<value>', 'its new value')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv config set trim.threshold 2000', 'cmv config set model sonnet-4.5', 'cmv config set claude.binary /usr/local/bin/claude']))
    .action((key: string, value: string, opts: { json?: boolean }) => run(async () => (await import('./commands/config.js')).configSetCommand(key, value, new Output(opts))));
  config
    .command('unset')
    .description('put one setting back to its default')
    .argument('<key>', 'a setting, e.g. trim.threshold')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv config unset model']))
    .action((key: string, opts: { json?: boolean }) => run(async () => (await import('./commands/config.js')).configUnsetCommand(key, new Output(opts))));

  program
    .command('graph')
    .description('the session knowledge graph: goal, tasks, decisions, files, errors, tests, agents and their links')
    .argument('<session>', 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`')
    .option('--json', 'print the graph as JSON ({nodes, edges})')
    .option('--dot', 'print Graphviz DOT')
    .option('--mermaid', 'print a Mermaid flowchart')
    .option('--explain', 'name the rule behind each node, and what each rule matches and why')
    .addHelpText(
      'before',
      examples(['cmv graph latest', 'cmv graph 3f2a --explain', 'cmv graph 3f2a --json', 'cmv graph 3f2a --dot | dot -Tsvg > graph.svg', 'cmv graph 3f2a --mermaid']),
    )
    .action((session: string, opts: GraphCommandOptions) => run(async () => (await import('./commands/graph.js')).graphCommand(session, opts, new Output(opts))));

  program
    .command('resume')
    .description('the resume block of a session: goal, work in progress and done, decisions, files, errors, in a token budget')
    .argument('<session>', 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`')
    .option('--tier <tier>', 'critical (<= 100 tokens), standard (<= 300, the default) or full (<= 600)')
    .option('--budget <tokens>', 'fit the block in TOKENS instead of the tier\'s budget')
    .option('--json', 'print JSON ({text, tokens, tier, sections})')
    .addHelpText(
      'before',
      examples(['cmv resume latest', 'cmv resume 3f2a --tier critical', 'cmv resume 3f2a --budget 78 --json', 'cmv resume 3f2a --tier full | pbcopy']),
    )
    .action((session: string, opts: ResumeCommandOptions & { json?: boolean }) => run(async () => (await import('./commands/resume.js')).resumeCommand(session, opts, new Output(opts))));

  program
    .command('compact')
    .description('compact a session without a model: older history becomes the resume block, the latest turn stays (tool output stubbed), the last messages stay exactly')
    .argument('<session>', 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`')
    .option('--keep <n>', 'messages kept exactly at the end (default 5)')
    .option('-o, --output <file>', 'write the compacted log to FILE instead of a new session')
    .option('--force', 'with -o: overwrite FILE if it exists')
    .option('--tier <tier>', 'the summary\'s tier: critical, standard or full (the default)')
    .option('--budget <tokens>', 'the summary\'s token budget instead of the tier\'s')
    .option('--json', 'print JSON')
    .addHelpText(
      'before',
      examples([
        'cmv compact latest                   # new session; prints `claude --resume <id>`',
        'cmv compact 3f2a --keep 10',
        'cmv compact 3f2a -o compacted.jsonl --json',
      ]),
    )
    .action((session: string, opts: CompactCommandOptions & { json?: boolean }) => run(async () => (await import('./commands/compact.js')).compactCommand(session, opts, new Output(opts))));

  program
    .command('snapshot')
    .description('store a session as a snapshot in the git-backed store (the session is never touched)')
    .argument('<session>', 'a .jsonl path, a session id, a unique id prefix (4+ chars) or `latest`')
    .option('-n, --name <name>', 'the snapshot\'s name (default: <session id prefix>-<n>)')
    .option('-m, --message <text>', 'a description, stored with the snapshot')
    .option('-t, --tag <tags>', 'comma-separated tags')
    .option('--json', 'print JSON')
    .addHelpText(
      'before',
      examples(['cmv snapshot latest -n auth-work -m "before the refactor"', 'cmv snapshot 3f2a -t auth,wip', 'cmv snapshot ./session.jsonl --json']),
    )
    .action((session: string, opts: SnapshotCommandOptions & { json?: boolean }) => run(async () => (await import('./commands/snapshot.js')).snapshotCommand(session, opts, new Output(opts))));

  program
    .command('branch')
    .description('materialise a snapshot as a new Claude Code session (trimmed by default) and print how to resume it')
    .argument('<snapshot>', 'a snapshot or branch name, or a commit id prefix')
    .option('-n, --name <name>', 'the branch\'s name (default: <snapshot>-branch-<n>)')
    .option('--no-trim', 'keep the log whole (only its session id changes)')
    .option('--threshold <chars>', 'trim: stub tool results longer than CHARS characters (default 1000)')
    .option('--budget <tokens>', 'trim: then evict old tool episodes until the session fits TOKENS')
    .option('--keep-history', 'trim: keep the lines before the last compaction boundary')
    .option('--strip-user-images', 'trim: stub images the user pasted too')
    .option('--with-resume', 'put the snapshot\'s resume block (from its session graph) in front of the branched session')
    .option('--tier <tier>', 'with --with-resume: critical, standard (default) or full')
    .option('--launch', 'run `claude --resume` in the session\'s project folder')
    .option('--json', 'print JSON')
    .addHelpText(
      'before',
      examples(['cmv branch auth-work                 # prints `cd <project> && claude --resume <id>`', 'cmv branch auth-work -n retry --launch', 'cmv branch auth-work --with-resume --tier critical', 'cmv branch auth-work --no-trim --json']),
    )
    .action((snapshot: string, opts: BranchCommandOptions & { json?: boolean }) => run(async () => (await import('./commands/branch.js')).branchCommand(snapshot, opts, new Output(opts))));

  program
    .command('list')
    .description('every snapshot and branch in the store')
    .option('--tag <tag>', 'only snapshots with this tag')
    .option('--session <id>', 'only snapshots of sessions whose id starts with ID')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv list', 'cmv list --tag pre-compact', 'cmv list --json']))
    .action((opts: ListCommandOptions & { json?: boolean }) => run(async () => (await import('./commands/list.js')).listCommand(opts, new Output(opts))));

  program
    .command('log')
    .description('the lineage of a snapshot (what it grew or was branched from), or every snapshot')
    .argument('[name]', 'a snapshot or branch name')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv log', 'cmv log auth-work-branch-1', 'cmv log auth-work --json']))
    .action((name: string | undefined, opts: { json?: boolean }) => run(async () => (await import('./commands/log.js')).logCommand(name, new Output(opts))));

  program
    .command('tree')
    .description('the snapshot DAG drawn like `git log --graph`: snapshots, trims and branches with sizes and tokens')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv tree', 'cmv tree --json']))
    .action((opts: { json?: boolean }) => run(async () => (await import('./commands/tree.js')).treeCommand(new Output(opts))));

  program
    .command('show')
    .description('everything stored about a snapshot: meta, lineage and children')
    .argument('<snapshot>', 'a snapshot or branch name, or a commit id prefix')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv show auth-work', 'cmv show auth-work --json']))
    .action((snapshot: string, opts: { json?: boolean }) => run(async () => (await import('./commands/show.js')).showCommand(snapshot, new Output(opts))));

  program
    .command('diff')
    .description('messages added and removed between two snapshots, the token delta and the files newly touched')
    .argument('<a>', 'the earlier snapshot')
    .argument('<b>', 'the later snapshot')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv diff auth-work-1 auth-work-2', 'cmv diff auth-work auth-work-branch-1 --json']))
    .action((a: string, b: string, opts: { json?: boolean }) => run(async () => (await import('./commands/diff.js')).diffCommand(a, b, new Output(opts))));

  program
    .command('rm')
    .description('remove a snapshot or branch name (`cmv gc` frees what nothing refers to any more)')
    .argument('<name>', 'a snapshot or branch name')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv rm auth-work-1', 'cmv rm old-branch && cmv gc']))
    .action((name: string, opts: { json?: boolean }) => run(async () => (await import('./commands/rm.js')).rmCommand(name, new Output(opts))));

  program
    .command('gc')
    .description('repack the snapshot store and drop what no snapshot or branch reaches')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv gc']))
    .action((opts: { json?: boolean }) => run(async () => (await import('./commands/gc.js')).gcCommand(new Output(opts))));

  program
    .command('fsck')
    .description('verify every object and every page of the snapshot store; exit non-zero on damage')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv fsck', 'cmv fsck --json']))
    .action((opts: { json?: boolean }) => run(async () => (await import('./commands/fsck.js')).fsckCommand(new Output(opts))));

  program
    .command('export')
    .description('write snapshots with their lineage to a git bundle, secrets redacted')
    .argument('<names...>', 'snapshot or branch names')
    .option('-o, --output <file>', 'the bundle file to write')
    .option('--no-redact', 'keep secrets (API keys, tokens, passwords) as logged')
    .option('--force', 'overwrite FILE if it exists')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv export auth-work -o auth.bundle', 'cmv export a b c -o team.bundle --json']))
    .action((names: string[], opts: ExportCommandOptions & { json?: boolean }) => run(async () => (await import('./commands/export.js')).exportCommand(names, opts, new Output(opts))));

  program
    .command('import')
    .description('take in the snapshots of a bundle made by `cmv export` (checked before anything is named)')
    .argument('<file>', 'the bundle')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv import auth.bundle', 'cmv import team.bundle --json']))
    .action((file: string, opts: { json?: boolean }) => run(async () => (await import('./commands/import.js')).importCommand(file, new Output(opts))));

  const remote = program
    .command('remote')
    .description('the git remotes snapshots are shared through')
    .addHelpText('before', examples(['cmv remote add origin git@github.com:me/cmv-snapshots.git', 'cmv remote list', 'cmv remote remove origin']));
  remote
    .command('add')
    .description('add a git remote')
    .argument('<name>', 'the remote\'s name')
    .argument('<url>', 'any URL git accepts, or the path of a bare repository')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv remote add origin git@github.com:me/cmv-snapshots.git', 'cmv remote add local /srv/snapshots.git']))
    .action((name: string, url: string, opts: { json?: boolean }) => run(async () => (await import('./commands/remote.js')).remoteAddCommand(name, url, new Output(opts))));
  remote
    .command('remove')
    .description('remove a git remote')
    .argument('<name>', 'the remote\'s name')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv remote remove origin']))
    .action((name: string, opts: { json?: boolean }) => run(async () => (await import('./commands/remote.js')).remoteRemoveCommand(name, new Output(opts))));
  remote
    .command('list')
    .description('the remotes')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv remote list']))
    .action((opts: { json?: boolean }) => run(async () => (await import('./commands/remote.js')).remoteListCommand(new Output(opts))));

  program
    .command('push')
    .description('share snapshots (with their lineage) through a git remote, secrets redacted')
    .argument('[remote]', 'the remote (default: the only one, or origin)')
    .argument('[names...]', 'snapshot or branch names (default: all)')
    .option('--no-redact', 'keep secrets (API keys, tokens, passwords) as logged')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv push', 'cmv push origin auth-work', 'cmv push origin --json']))
    .action((remoteName: string | undefined, names: string[], opts: { redact?: boolean; json?: boolean }) => run(async () => (await import('./commands/push.js')).pushCommand(remoteName, names, opts, new Output(opts))));

  program
    .command('pull')
    .description('take in the snapshots of a git remote (checked like an import)')
    .argument('[remote]', 'the remote (default: the only one, or origin)')
    .option('--json', 'print JSON')
    .addHelpText('before', examples(['cmv pull', 'cmv pull origin --json']))
    .action((remoteName: string | undefined, opts: { json?: boolean }) => run(async () => (await import('./commands/pull.js')).pullCommand(remoteName, new Output(opts))));

  return program;
}

/** Runs the CLI and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = EXIT_OK;
  const run = async (action: () => Promise<number | void>) => {
    try {
      const code = await action();
      if (typeof code === 'number') exitCode = code;
    } catch (error) {
      exitCode = reportError(error);
    }
  };
  const program = buildProgram(run);
  program.exitOverride();
  try {
    if (argv.length <= 2) {
      // `cmv` alone: the dashboard on a terminal, the help anywhere else.
      const ui = await import('./commands/ui.js');
      if (ui.dashboardBlocker() === undefined) await run(() => ui.uiCommand({}, new Output()));
      else program.outputHelp();
      return exitCode;
    }
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT_OK;
      return exitCodeFor('USAGE');
    }
    return reportError(error);
  }
  return exitCode;
}

function reportError(error: unknown): number {
  if (isCmvError(error)) {
    process.stderr.write(`${chalk.red('cmv:')} ${forTerminal(error.message)}\n`);
    if (error.hint) process.stderr.write(`${chalk.dim('hint:')} ${forTerminal(error.hint)}\n`);
    if (process.env.CMV_DEBUG === '1' && error.stack) process.stderr.write(`${error.stack}\n`);
    return exitCodeFor(error.code);
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${chalk.red('cmv: internal error:')} ${forTerminal(message)}\n`);
  process.stderr.write(`${chalk.dim('hint:')} run again with CMV_DEBUG=1 for details, and report it\n`);
  if (process.env.CMV_DEBUG === '1' && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return exitCodeFor('INTERNAL');
}
