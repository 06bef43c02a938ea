// Generates a genuine Claude Code session log from a script: the real CLI runs `-p` (then
// `-p --resume` for each further prompt) against the mock API, which answers the main loop with
// the scripted assistant messages in order, so the CLI really executes the tool calls in the
// project and writes the log exactly as it would for a user. Side calls get a harmless title.

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeRun, encodeProjectDir, offlineEnv, runClaude, generatingClient, type ClaudeClient, type ClaudeRun } from './claude-client.js';
import { start as startMock, type MockBlock, type MockReply } from './mock-api.js';

/** One user prompt and the assistant messages the "model" answers with, one per main-loop call. */
export interface ScriptedInvocation {
  prompt: string;
  replies: MockBlock[][];
}

export interface SessionScript {
  name: string;
  /** Title the side calls get. */
  title: string;
  /** Tool results the script means to fail (a crash reproduced, a failing test run). */
  expectedToolErrors: number;
  invocations: ScriptedInvocation[];
}

export interface GeneratedSession {
  /** The session log the CLI wrote (inside `home`). */
  file: string;
  sessionId: string;
  /** Scratch HOME the CLI ran with; remove it when done. */
  home: string;
  runs: (ClaudeRun & { durationMs: number })[];
}

export interface GenerateOptions {
  /** Per CLI run (default 90 s). */
  timeoutMs?: number;
  /** Extra environment for the CLI and so for the commands its Bash tool runs. */
  env?: Record<string, string>;
  /** The client that writes the session (default: 2.1.100, whose tool set the scripts were written for). */
  client?: ClaudeClient;
}

/**
 * Runs every invocation of `script` in `projectDir` and returns the session log. Throws when a run
 * fails, or when the CLI asked for more or fewer answers than the invocation scripts: a script out
 * of step with the client would silently generate a different session.
 */
export async function generateSession(script: SessionScript, projectDir: string, options: GenerateOptions = {}): Promise<GeneratedSession> {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const cwd = await realpath(projectDir);
  const home = await realpath(await mkdtemp(join(tmpdir(), `cmv-heavy-home-${script.name}-`)));
  const sessionId = randomUUID();
  let queue: MockBlock[][] = [];
  let overrun = 0;
  const mock = await startMock({
    sideText: script.title,
    maxLifetimeMs: script.invocations.length * timeoutMs + 30_000,
    mainReply: (): MockReply | undefined => {
      const next = queue.shift();
      if (next) return { content: next };
      overrun++;
      return undefined;
    },
  });
  const runs: GeneratedSession['runs'] = [];
  try {
    await mkdir(join(home, '.claude'), { recursive: true });
    const env = offlineEnv(mock.url, {
      HOME: home,
      // Interactive sessions carry file-history-snapshot lines; -p ones only with this.
      CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: '1',
      ...options.env,
    });
    for (const [i, invocation] of script.invocations.entries()) {
      queue = [...invocation.replies];
      overrun = 0;
      const session = i === 0 ? ['--session-id', sessionId] : ['--resume', sessionId];
      const args = ['-p', invocation.prompt, ...session, '--output-format', 'json', '--permission-mode', 'bypassPermissions'];
      const started = Date.now();
      const run = await runClaude(args, cwd, env, timeoutMs, options.client ?? generatingClient());
      const ran = { ...run, durationMs: Date.now() - started };
      runs.push(ran);
      const label = `${script.name} invocation ${i + 1}`;
      if (run.exitCode !== 0) throw new Error(describeRun(label, ran));
      if (queue.length > 0 || overrun > 0) {
        throw new Error(
          `${label}: the CLI made ${invocation.replies.length - queue.length + overrun} main-loop calls, the script answers ${invocation.replies.length}; stdout: ${run.stdout.slice(0, 400)}`,
        );
      }
    }
    const file = join(home, '.claude', 'projects', encodeProjectDir(cwd), `${sessionId}.jsonl`);
    if (!existsSync(file)) throw new Error(`${script.name}: the CLI wrote no session log at ${file}`);
    return { file, sessionId, home, runs };
  } catch (error) {
    if (process.env.CMV_E2E_KEEP !== '1') await rm(home, { recursive: true, force: true });
    throw error;
  } finally {
    await mock.close();
  }
}
