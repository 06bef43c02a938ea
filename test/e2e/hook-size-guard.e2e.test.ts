// The PostToolUse size guard inside the real Claude Code CLI during a scripted session: the
// scripted "model" runs two Bash commands, the guard (threshold lowered to 1 KB) trims the log
// in place between them, the session carries on to its end, and it resumes afterwards.
// Needs the claude-harness's scripted mock (../shared/tools/claude-harness, or CMV_HARNESS_DIR);
// skipped without it or without the CLI.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientsUnderTest, describeRun, offlineEnv, runClaude } from './claude-client.js';
import { ROOT, buildIfStale, runCmv } from '../helpers/built-cli.js';

const clients = clientsUnderTest();
// Each run of the CLI may take this long on a loaded machine (the guard's hook starts node and cmv
// after every tool call); the test's own timeout covers both runs, so a slow run fails as a timed-out
// run with its stderr, not as vitest's default 30 s timeout in the middle of the session.
const RUN_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = 2 * RUN_TIMEOUT_MS + 30_000;
const harness = process.env.CMV_HARNESS_DIR ?? resolve(ROOT, '..', 'shared', 'tools', 'claude-harness');
const mockScript = join(harness, 'mock.mjs');

const SCRIPT = {
  invocations: [
    {
      prompt: 'count',
      responses: [
        {
          content: [
            { type: 'text', text: 'Let me count.' },
            { type: 'tool_use', name: 'Bash', input: { command: 'seq 1 20000', description: 'numbers' } },
          ],
          stop_reason: 'tool_use',
        },
        // The "model" thinks a while, as a real one does: the guard's trim runs meanwhile.
        { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'seq 1 3000', description: 'more numbers' } }], stop_reason: 'tool_use', delayMs: 1500 },
        { content: [{ type: 'text', text: 'Done counting.' }], stop_reason: 'end_turn', delayMs: 1500 },
      ],
    },
  ],
};

describe.skipIf(clients.length === 0 || !existsSync(mockScript))('the size guard in the real Claude Code CLI', () => {
  for (const client of clients)
    describe(`Claude Code ${client.version}`, () => {
      let scratch: string;
      let mock: ChildProcess | undefined;
      let env: Record<string, string>;
      let cmvEnv: Record<string, string>;
      let project: string;

      beforeAll(async () => {
        await buildIfStale();
        scratch = realpathSync(mkdtempSync(join(tmpdir(), 'cmv-guard-e2e-')));
        project = join(scratch, 'project');
        mkdirSync(project, { recursive: true });
        mkdirSync(join(scratch, 'config', 'cmv'), { recursive: true });
        writeFileSync(join(scratch, 'config', 'cmv', 'config.json'), JSON.stringify({ 'hook.growthBytes': 1024, 'hook.snapshot': false, 'hook.timeoutSeconds': 120 }));
        writeFileSync(join(scratch, 'script.json'), JSON.stringify(SCRIPT));
        cmvEnv = { HOME: join(scratch, 'home'), CMV_HOME: join(scratch, 'data'), XDG_CONFIG_HOME: join(scratch, 'config'), NO_COLOR: '1' };
        expect(runCmv(['hook', 'install', '--size-guard'], cmvEnv).code).toBe(0);
        const portFile = join(scratch, 'mock.port');
        mock = spawn(
          process.execPath,
          [mockScript, '--script', join(scratch, 'script.json'), '--log', join(scratch, 'requests.jsonl'), '--port', '0', '--port-file', portFile, '--max-seconds', '300'],
          { stdio: 'ignore' },
        );
        for (let i = 0; i < 600 && !existsSync(portFile); i++) await new Promise((r) => setTimeout(r, 100));
        if (!existsSync(portFile)) throw new Error('the scripted mock did not start within 60 s');
        const port = readFileSync(portFile, 'utf8').trim();
        env = offlineEnv(`http://127.0.0.1:${port}`, cmvEnv);
      }, 180_000);

      afterAll(() => {
        mock?.kill();
        if (scratch && process.env.CMV_E2E_KEEP !== '1') rmSync(scratch, { recursive: true, force: true });
      });

      it(
        'trims the log between tool calls, and the session goes on and resumes',
        async () => {
          const first = await runClaude(['-p', 'count', '--output-format', 'json', '--permission-mode', 'bypassPermissions'], project, env, RUN_TIMEOUT_MS, client);
          expect(first.exitCode, describeRun('the session', first)).toBe(0);
          const result = JSON.parse(first.stdout);
          expect(result.result).toBe('Done counting.');

          const records = readFileSync(join(scratch, 'data', 'hooks', 'trims.jsonl'), 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
          expect(records.length).toBeGreaterThanOrEqual(1);
          expect(records.every((r) => r.by === 'size-guard' && r.sessionId === result.session_id)).toBe(true);
          // The guard trimmed the first command's output once it was in the log, and kept a backup.
          const big = records.find((r) => r.bytesBefore - r.bytesAfter > 20_000);
          expect(big, JSON.stringify(records)).toBeDefined();
          expect(existsSync(big.backup)).toBe(true);
          const projects = join(scratch, 'home', '.claude', 'projects');
          const log = join(projects, readdirSync(projects)[0], `${result.session_id}.jsonl`);
          expect(readFileSync(log, 'utf8')).toContain('[cmv: exit 0, ');
          expect(existsSync(join(scratch, 'data', 'hooks', 'hook.log'))).toBe(false);

          const resumed = await runClaude(['-p', 'hi', '--resume', result.session_id, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], project, env, RUN_TIMEOUT_MS, client);
          expect(resumed.exitCode, describeRun('the resumed session', resumed)).toBe(0);
          expect(JSON.parse(resumed.stdout).session_id).toBe(result.session_id);
        },
        TEST_TIMEOUT_MS,
      );
    });
});
