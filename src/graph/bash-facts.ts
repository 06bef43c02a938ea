// What a shell command says about the work: tests run and their counts, dependencies installed,
// versions of the tools in use, commits, and failures (non-zero exit) that a later green re-run
// of the same command FIXES.

import type { ToolStep } from './session-turns.js';
import { clipWords } from './labels.js';
import { closeError, parentTask, type ExtractState } from './extract-state.js';
import type { DraftNode } from './graph-builder.js';

export const TEST_RUNNER =
  /\b(pytest|py\.test|unittest|jest|vitest|mocha|ava|jasmine|karma|playwright test|cypress run|go test|cargo (?:test|nextest)|(?:npm|pnpm|yarn|bun)(?: run)? test(?::[\w:-]+)?|bun test|node --test|deno test|mvn(?:w)? (?:test|verify)|gradle(?:w)? test|\.\/gradlew test|rspec|phpunit|dotnet test|(?:make|just) test|ctest|swift test|mix test|tox|nox|rake test|elixir test|zig test|npx (?:jest|vitest|mocha|playwright test))\b/;

const INSTALL =
  /^(?:sudo\s+)?(?:(?:npm|pnpm|bun)\s+(?:install|i|add)|yarn\s+add|(?:pip3?|uv pip|python3? -m pip)\s+install|uv\s+add|poetry\s+add|pipenv\s+install|cargo\s+add|go\s+get|gem\s+install|bundle\s+add|composer\s+require|(?:apt(?:-get)?|brew|apk|dnf|yum)\s+(?:install|add)|dotnet\s+add\s+package|conda\s+install|mix\s+deps\.get)\s+(.+)$/;

const VERSION_QUERY = /^(?:(\S+)\s+(?:--version|-v|-V|version)|(python3?|node|go|rustc|cargo|java|ruby|php|deno|bun|npm|pnpm|yarn|gcc|clang|docker|kubectl|terraform)\s+-version)$/;

/** Commands split at `&&`, `||`, `;` and pipes, with leading `cd` and env assignments removed. */
/** A wrapper that runs the command after it and filters its output (`rtk git status`; seen in 2.1.50 logs). */
const WRAPPER = /^rtk\s+(?!-)/;

export function commandSegments(command: string): string[] {
  return command
    .split(/\s*(?:&&|\|\||;|\|)\s*/)
    .map((s) =>
      s
        .replace(/^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+/, '')
        .replace(WRAPPER, '')
        .trim(),
    )
    .filter((s) => s !== '' && !/^cd\s/.test(s));
}

/**
 * What a command does, without its arguments: the program and its subcommands ("gh pr create",
 * "npm run build"). A green run of the same operation with other flags fixes a failed one.
 */
export function operationOf(command: string): string {
  const words = commandSegments(command)[0]?.split(/\s+/) ?? [];
  const op: string[] = [];
  for (const word of words) {
    if (op.length >= 3 || word.startsWith('-') || /["'$=/.]/.test(word)) break;
    op.push(word);
  }
  return op.length >= 2 ? `op:${op.join(' ')}` : `op:${words.join(' ')}`;
}

export function normaliseCommand(command: string): string {
  return command
    .replace(/\s+/g, ' ')
    .replace(/\s+2>&1\b/g, '')
    .trim();
}

/**
 * A command as a label shows it: a message passed through a heredoc ("$(cat <<'EOF' ... EOF)")
 * stands as its first line, so `git commit -m "$(cat <<'EOF'` reads `git commit -m "Add X"`.
 */
export function displayCommand(raw: string): string {
  const inline = raw.replace(
    /\$\(cat\s+<<-?\s*(['"]?)(\w+)\1[^\n]*\n([\s\S]*?)\n\s*\2\s*\)/g,
    (_, _quote, _tag, body: string) =>
      body
        .split('\n')
        .map((l) => l.trim())
        .find(Boolean) ?? '',
  );
  return normaliseCommand(inline);
}

/**
 * `failed`: the command failed though its exit code says 0 (a check piped into `head` or `tail`
 * whose output says it failed; see rules/work-rules.ts).
 */
export function bashFacts(step: ToolStep, state: ExtractState, options: { failed?: boolean; confidence?: number; most?: number } = {}): void {
  const raw = typeof step.input.command === 'string' ? step.input.command : '';
  const command = normaliseCommand(raw);
  if (!command || !step.answered) return;
  // "Sibling tool call errored": the client cancelled this call because another of the same batch failed; it never ran (seen in 2.1.50 logs).
  if (/user doesn't want to proceed|was rejected|interrupted by user|Sibling tool call errored/i.test(step.result)) return;
  const { builder, turn } = state;
  // A commit a hook blocked can still exit 0 through a wrapper (rtk prints "FAILED: git commit"; seen in 2.1.50 logs).
  const hookBlocked = /\bgit commit\b/.test(command) && /\bFAILED: git commit\b|\b(?:pre-commit|commit-msg) hook (?:failed|exited)|husky - \S+ (?:script )?failed/i.test(step.result);
  const failed = step.isError || exitCode(step.result) !== 0 || hookBlocked || options.failed === true;
  // A commit that failed printing a check's output, not git's own complaint, was stopped by its
  // pre-commit hook (a hook that runs `bun test` prints "$ bun test src/" and the test log; seen in 2.1.50 logs).
  const ranHook =
    !hookBlocked &&
    failed &&
    /\bgit commit\b/.test(command) &&
    !/--no-verify\b/.test(command) &&
    !GIT_OWN_FAILURE.test(step.result) &&
    /^\$ \S|^\s*\d+ (?:fail|failed)\b|\berror TS\d+:|(?:^|\\n)\[[A-Z][A-Z_-]+\](?=\s|$)|^pre-commit\b.*\bfailed\b/im.test(step.result);
  // "nothing to commit, working tree clean": the commit had nothing to do, and nothing is broken.
  if (failed && /\bgit commit\b/.test(command) && /\bnothing (?:to commit|added to commit)\b/.test(step.result)) return;
  const segments = commandSegments(command);
  const tests = segments.filter((s) => TEST_RUNNER.test(s));
  const mention = { confidence: options.confidence ?? 0.9, turn, uuid: step.uuid };

  let test;
  if (tests.length > 0) {
    const label = clipCommand(tests.join(' && '));
    const counts = testCounts(step.result);
    test = builder.mention('TEST', label, { ...mention, status: failed ? 'failed' : 'completed', detail: counts, replaceDetail: true });
    builder.link(test, parentTask(state), 'PART_OF');
  }
  const runner = tests.length > 0 ? TEST_RUNNER.exec(tests[0])?.[1] : undefined;

  if (failed) {
    // An exploratory command that found nothing (grep, find, a shell parse error) is no problem.
    // A failed install (a package not in the registry) is a problem too.
    if (!hookBlocked && !ranHook && !segments.some((seg) => TEST_RUNNER.test(seg) || CHECK.test(seg) || INSTALL.test(seg)) && !/command not found/.test(step.result)) return;
    // The shell could not parse the command: nothing was checked.
    if (/\bparse error near\b|syntax error near unexpected token|unexpected EOF while looking for/.test(step.result)) return;
    const reason = errorLine(step.result);
    // Blocked behind a wrapper that exited 0, the hook's own error says what stopped it.
    const found =
      (hookBlocked && !step.isError && exitCode(step.result) === 0) || ranHook
        ? [hookLabel(step.result)]
        : PUSH_REJECTED.test(step.result) && /\bgit push\b/.test(command)
          ? ['git push rejected: remote has work not pulled locally']
          : failureLines(step.result);
    // A first line such as "# example.com/pkg [example.com/pkg.test]" names a package, not a problem.
    if (!found.length && /^#\s/.test(reason)) return;
    // "# example.com/pkg [example.com/pkg.test]" heads the errors of one package: it names no problem.
    const labels = (
      found.length ? found : [runner ? `${clipCommand(tests[0])} failed${reason ? `: ${reason}` : ''}` : `${clipCommand(displayCommand(raw))}: ${reason || `exit ${exitCode(step.result) ?? 'error'}`}`]
    )
      .filter((l) => !/^[:#\s]*[\w.@/-]+ \[[\w.@/-]+\.test\]$/.test(l))
      .map((l) => ownLabel(withoutProject(l, state.cwd), raw))
      // "python: command not found (exit code 127)": the shell's code for a program it could not find.
      .map((l) => (/: command not found$/.test(l) && exitCode(step.result) ? `${l} (exit code ${exitCode(step.result)})` : l))
      .slice(0, options.most ?? 3);
    if (hookBlocked || ranHook) blockedCommitFacts(raw, state, step.uuid);
    for (const label of labels) {
      const error = builder.mention('ERROR', label, { ...mention, status: 'failed', fuzzy: false });
      if (error && !state.openErrors.some((o) => o.node === error)) {
        state.openErrors.push({ node: error, command, testRunner: runner, changedSince: [] });
        builder.link(error, parentTask(state), 'BLOCKS');
      }
    }
  } else {
    const ran = new Set([command, ...segments.map(normaliseCommand), ...segments.map(operationOf)]);
    for (const open of [...state.openErrors]) {
      const retried = open.command !== undefined && (ran.has(open.command) || ran.has(operationOf(open.command)));
      if (retried || (runner !== undefined && open.testRunner === runner)) closeError(state, open, test, step.uuid);
    }
    for (const segment of segments) installFacts(segment, state, step.uuid);
    versionFacts(segments, step.result, state, step.uuid);
    commitFacts(raw, state, step.uuid);
  }
}

/** git's own reasons a commit fails (nothing staged, no identity, a bad path): no hook ran. */
const GIT_OWN_FAILURE = /^fatal: |^error: (?:pathspec|cannot|could not|unable|src refspec)|nothing (?:to commit|added to commit)|Please tell me who you are|no changes added to commit/m;

/** git's answer to a push behind its remote ("! [rejected] main -> main (fetch first)"). */
const PUSH_REJECTED = /\[rejected\]|Updates were rejected because/;

/** Commands that check the work (builds, lints, type checks, commits with hooks, pushes, the program itself): their failure is a problem. */
export const CHECK =
  /^(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?[\w:-]*(?:build|lint|test|check|format|fmt|compile|typecheck|verify)|npx\s+(?:tsc|eslint|prettier|biome|next\s+build)|tsc|eslint|go\s+(?:build|vet|test|run|install|mod\s+tidy)|golangci-lint|gofmt|staticcheck|cargo\s+(?:build|check|clippy|test|fmt|llvm-cov|run)|make|just|mise\s+run|mix\s+(?:compile|test|credo|dialyzer|format|precommit|quality|deps\.audit)|(?:uv\s+run\s+)?python3?\s+(?:-m\s+(?:pytest|mypy|ruff|unittest)|\S+\.py)|ruff|mypy|flake8|black|pre-commit|git\s+(?:commit|push|merge|rebase)|gh\s+pr\s+create|mvn|gradle|dotnet\s+build|swift\s+build|node\s+\S+\.m?js|\.\/\S+)\b/;

/**
 * "unrecognized subcommand 'bun'" -> "rtk: unrecognized subcommand 'bun'": a program that could not
 * parse its own arguments (clap, commander, cobra) says so without its name; the label names it.
 */
export function ownLabel(label: string, raw: string): string {
  if (!/^(?:unrecognized|unexpected|unknown|invalid) (?:subcommand|argument|option|command|flag)\b/i.test(label)) return label;
  const first = raw.split(/\s*(?:&&|\|\||;|\|)\s*/).find((seg) => seg.trim() !== '' && !/^\s*cd\s/.test(seg)) ?? '';
  const program = first
    .trim()
    .replace(/^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+/, '')
    .split(/\s+/)[0]
    ?.replace(/^.*\//, '');
  return program && /^[\w.-]+$/.test(program) ? `${program}: ${label}` : label;
}

/** Paths inside the project said relative to it, as the Files line says them. */
function withoutProject(label: string, cwd: string | undefined): string {
  return cwd && cwd.length > 1 ? label.split(`${cwd.replace(/\/+$/, '')}/`).join('') : label;
}

/** A warning or a log line at INFO/DEBUG level (a test's own logging): nothing failed there. */
const NOT_FAILURE = /^(?:npm |yarn |pnpm )?warn(?:ing)?\b|^\(node:\d+\) \w*Warning\b|\b(?:INFO|DEBUG|TRACE)\s+\S+.*\b(?:component|hook|level)=/i;

/** The lines of a failed check that say what failed, one per problem (at most three). */
export function failureLines(output: string): string[] {
  // npm's 404 says it in five lines; the package not in the registry is the problem.
  const missing = /^npm (?:error|ERR!) 404\s+'([^']+?)(?:@[*^~\d][^']*)?' is not in (?:this|the npm) registry/m.exec(output);
  if (missing) return [`${missing[1]} not in registry (E404)`];
  const found: string[] = [];
  // A linter that reports several findings ("main.go:12:3: G304: ... (gosec)") is one problem:
  // "gosec G304/G104 lint errors in main.go", as a person lists it.
  const findings = new Map<string, { codes: Set<string>; files: Set<string> }>();
  for (const line of output.split('\n')) {
    const f = /^(\S+\.\w+):\d+(?::\d+)?:\s+(?:([A-Z]+\d+):\s+)?.+?\s+\((\w+)\)$/.exec(line.trim());
    if (!f) continue;
    const entry = findings.get(f[3]) ?? { codes: new Set<string>(), files: new Set<string>() };
    if (f[2]) entry.codes.add(f[2]);
    entry.files.add(f[1].replace(/^.*\//, ''));
    findings.set(f[3], entry);
  }
  const grouped = new Set<string>();
  for (const [linter, { codes, files }] of findings) {
    const count = output.split('\n').filter((l) => new RegExp(`\\(${linter}\\)\\s*$`).test(l)).length;
    if (count < 2) continue;
    grouped.add(linter);
    found.push(`${linter}${codes.size ? ` ${[...codes].join('/')}` : ''} lint errors in ${[...files].slice(0, 3).join(', ')}`);
  }
  const add = (text: string | undefined) => {
    // "error: script "test" exited with code 1" (bun) says only that it failed.
    if (!text || NOT_FAILURE.test(text) || /^script "[^"]*" exited with code \d+$/.test(text.trim())) return;
    const label = clipWords(text.replace(/`/g, '').replace(/\s+/g, ' ').trim(), 14).slice(0, 140);
    if (label.length > 3 && !found.includes(label)) found.push(label);
  };
  const lines = output.split('\n');
  // The checker a script ran ("$ biome check --error-on-warnings"): it names the diagnostics below.
  const tool = /^\$ (?:npx |bunx )?([a-z][\w-]*)/m.exec(output)?.[1];
  for (let i = 0; i < lines.length && found.length < 3; i++) {
    const line = lines[i].trim();
    let m: RegExpExecArray | null;
    if ((m = /^(?:at\s+)?(\S+\.\w+)(?::\d+:\d+)?\s+([\w/-]+)\s+━+$/.exec(line))) {
      // Biome: "frontend/src/x.tsx format ━━━" then "× Formatter would have printed ..." -> "biome formatter error in x.tsx".
      const file = m[1].replace(/^.*\//, '');
      const what = m[2] === 'format' ? 'formatter' : m[2];
      const why =
        m[2] === 'format'
          ? undefined
          : lines
              .slice(i + 1, i + 4)
              .map((l) => /^\s*[×✖!]\s+(.+)$/.exec(l)?.[1])
              .find(Boolean);
      add(`${tool && tool !== m[2] ? `${tool} ` : ''}${what} error in ${file}${why ? `: ${why}` : ''}`);
    } else if ((m = /^--- FAIL: (\S+)/.exec(line))) {
      const why = lines
        .slice(i + 1, i + 4)
        .map((l) => /^\s*\S+_test\.go:\d+: (.+)$/.exec(l)?.[1])
        .find(Boolean);
      add(why ? `${m[1]}: ${why}` : `${m[1]} failing`);
    } else if ((m = /^\S+\.\w+:\d+(?::\d+)?:\s+(.+?)\s+\((\w+)\)$/.exec(line))) {
      if (!grouped.has(m[2])) add(`${m[2]}: ${m[1]}`);
    } else if ((m = /^(?:\.\/)?\S+\.(?:go|rs|ts|tsx|js|py|ex|exs):\d+(?::\d+)?:\s+(?:error:\s+)?(.+)$/.exec(line)) && !/^(?:warning|note)\b/.test(m[1])) add(m[1]);
    else if ((m = /\berror TS\d+: (.+)$/.exec(line))) add(m[1]);
    else if ((m = /^FAILED (\S+::\S+?)(?: - (.+))?$/.exec(line))) add(m[2] ? `${m[1].replace(/^.*::/, '')}: ${m[2]}` : `${m[1].replace(/^.*::/, '')} failing`);
    else if ((m = /^(?:FAIL|ERROR): (\w+) \(/.exec(line))) {
      // unittest: "FAIL: test_x (module.Class.test_x)", then the traceback's last line says why.
      const why = lines
        .slice(i + 1, i + 20)
        .map((l) => /^(\w*(?:Error|Exception)\b.*)$/.exec(l.trim())?.[1])
        .find(Boolean);
      add(why ? `${m[1]}: ${why}` : `${m[1]} failing`);
    } else if ((m = /^E\s+(\w*(?:Error|Exception)\b.*)$/.exec(line))) add(m[1]);
    else if ((m = /\*\* \((\w+)\) (.+)$/.exec(line))) add(`${m[1]}: ${m[2]}`);
    else if ((m = /^(?:npm error \d{3}\s+)(.+)$/.exec(line))) add(m[1]);
    else if ((m = /^(?:error(?:\[E\d+\])?|fatal|npm ERR!|ERROR):?\s+(.+)$/.exec(line))) add(m[1]);
    else if ((m = /^(?:\S+: )?(?:line \d+: )?(\S+: command not found)/.exec(line))) add(m[1]);
  }
  return found;
}

/** Bash results of failed commands begin with "Exit code N"; 0 otherwise. */
export function exitCode(result: string): number | undefined {
  const m = /^(?:Error: )?Exit code (\d+)/.exec(result);
  return m ? Number(m[1]) : 0;
}

function clipCommand(command: string): string {
  return command.length <= 80 ? command : `${command.slice(0, 79)}…`;
}

/** The line of a failure that says what went wrong. */
export function errorLine(output: string): string {
  // A warning ("npm warn exec ...", "ExperimentalWarning: ...") or a log line at INFO/DEBUG level says nothing failed.
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^Exit code \d+$/.test(l) && !NOT_FAILURE.test(l));
  const pick =
    lines.find((l) => /^(?:FAIL(?:ED)?|ERROR|not ok)\b[: ]/.test(l)) ??
    // "[TypeError: generate is not a function]": Next.js prints the thrown error in brackets.
    [...lines]
      .reverse()
      .find((l) => /^\[?[\w.]*(?:Error|Exception)\b:/.test(l))
      ?.replace(/^\[(.*)\]$/, '$1') ??
    lines.find((l) => /^(?:error|fatal|panic)(?:\[\w+\])?:/i.test(l)) ??
    lines.find((l) => /\b(?:error|failed|cannot|not found|no such)\b/i.test(l)) ??
    lines[0] ??
    '';
  return clipWords(pick.replace(/\s*\([^)]*\)/g, '').replace(/\s+/g, ' '), 12).slice(0, 140);
}

/** "3 passed, 1 failed" from the output of the common runners. */
export function testCounts(output: string): string | undefined {
  let passed: number | undefined;
  let failed: number | undefined;
  const num = (re: RegExp) => {
    const m = re.exec(output);
    return m ? Number(m[1]) : undefined;
  };
  // pytest, jest, vitest: "12 passed", "1 failed"; node --test / TAP: "# pass 4", "# fail 1"
  // bun test: " 1351 pass", " 114 fail"
  passed = num(/(\d+) passed/) ?? num(/^# pass (\d+)/m) ?? num(/Tests:.*?(\d+) passed/) ?? num(/^\s*(\d+) pass$/m);
  failed = num(/(\d+) failed/) ?? num(/^# fail (\d+)/m) ?? num(/^\s*(\d+) fail$/m);
  // cargo: "test result: ok. 8 passed; 0 failed"
  // unittest: "Ran 5 tests" + "OK" / "FAILED (failures=1, errors=2)"
  const ran = num(/^Ran (\d+) tests?/m);
  if (ran !== undefined && passed === undefined) {
    const failures = (num(/failures=(\d+)/) ?? 0) + (num(/errors=(\d+)/) ?? 0);
    failed = failures;
    passed = ran - failures;
  }
  if (passed === undefined && failed === undefined) return undefined;
  return [passed !== undefined ? `${passed} passed` : '', failed ? `${failed} failed` : ''].filter(Boolean).join(', ');
}

function installFacts(segment: string, state: ExtractState, uuid: string): void {
  const m = INSTALL.exec(segment);
  if (!m) return;
  for (const word of m[1].split(/\s+/)) {
    if (word.startsWith('-') || word === '.' || /^(?:install|add)$/.test(word) || (word.includes('=') && !/==|>=|<=|~=/.test(word))) continue;
    if (/requirements.*\.txt$|\.toml$|\.lock$/.test(word)) continue;
    const dep = state.builder.mention('DEPENDENCY', word.replace(/^['"]|['"]$/g, ''), { confidence: 0.95, turn: state.turn, uuid, detail: 'installed' });
    state.builder.link(parentTask(state), dep, 'DEPENDS_ON');
  }
}

function versionFacts(segments: string[], output: string, state: ExtractState, uuid: string): void {
  if (segments.length !== 1) return;
  const m = VERSION_QUERY.exec(segments[0]);
  if (!m) return;
  const tool = (m[1] ?? m[2]).replace(/^.*\//, '');
  const version = /v?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?/.exec(output)?.[0];
  if (!version) return;
  const env = state.builder.mention('ENVIRONMENT', `${tool} ${version}`, { confidence: 0.95, turn: state.turn, uuid });
  state.builder.link(state.project, env, 'DEPENDS_ON');
}

/** The commit a hook blocked: still to do until a later commit goes through. */
const blockedCommits = new WeakMap<ExtractState, DraftNode[]>();

/** "husky - pre-commit script failed" after "a.ts(15,39): error TS2307: Cannot find module './x'" -> "git commit blocked by pre-commit hook: error TS2307: Cannot find module './x'". */
export function hookLabel(raw: string): string {
  // A hook that printed its report as one escaped string ("failed:\\n\\n[FORMAT] ...") still has lines.
  const output = raw.replace(/\\n/g, '\n');
  const hook = /\b(pre-commit|commit-msg|pre-push)\b/.exec(output)?.[1] ?? 'pre-commit';
  // A hook that ran the tests: how many failed says it ("git commit blocked by pre-commit hook: 114 tests failed").
  const failedTests = /^\s*(\d+) (?:fail|failed)\b/m.exec(output)?.[1];
  if (failedTests && Number(failedTests) > 0) return `git commit blocked by ${hook} hook: ${failedTests} tests failed`;
  // A hook that runs several checks heads each one's output with its name ("[FORMAT]", "[CREDO]").
  const checks = [...new Set([...output.matchAll(/^\[([A-Z][A-Z_-]+)\](?=\s|$)/gm)].map((m) => m[1].toLowerCase()))];
  if (checks.length > 0) return `git commit blocked by ${hook} hook: ${checks.join(', ')} failed`;
  const lines = output.split('\n').map((l) => l.trim());
  // The last error before the hook's own "failed" line is what stopped it (earlier ones are test logs).
  const error = [...lines].reverse().find((l) => /\berror\b[\w ]*:/i.test(l) && !NOT_FAILURE.test(l));
  const why = error ? clipWords(error.replace(/^\S+\(\d+,\d+\):\s*/, '').replace(/\s+or its corresponding type declarations\.?$/, ''), 10) : '';
  return `git commit blocked by ${hook} hook${why ? `: ${why}` : ''}`;
}

function commitMessage(command: string): string | undefined {
  const heredoc = /<<\s*'?(\w+)'?\s*\n\s*(.+)/.exec(command);
  const inline = /\s-[a-z]*m\s+(["'])([\s\S]+?)\1/.exec(command);
  const message = heredoc?.[2] ?? inline?.[2];
  return message?.split('\n')[0].trim();
}

export function blockedCommitFacts(command: string, state: ExtractState, uuid: string): void {
  const first = commitMessage(command);
  if (!first) return;
  const task = state.builder.mention('TASK', `Commit: ${first}`, { confidence: 0.9, turn: state.turn, uuid, status: 'pending', fuzzy: false });
  if (task) blockedCommits.set(state, [...(blockedCommits.get(state) ?? []), task]);
}

function commitFacts(command: string, state: ExtractState, uuid: string): void {
  if (!/\bgit commit\b/.test(command)) return;
  const first = commitMessage(command);
  if (!first) return;
  // A commit that went through settles the ones a hook blocked before it.
  for (const blocked of blockedCommits.get(state) ?? []) state.builder.remove(blocked);
  blockedCommits.delete(state);
  const task = state.builder.mention('TASK', `Committed: ${first}`, { confidence: 1, turn: state.turn, uuid, status: 'completed', fuzzy: false });
  state.builder.link(task, parentTask(state), 'PART_OF');
  state.signals.completed = true;
}
