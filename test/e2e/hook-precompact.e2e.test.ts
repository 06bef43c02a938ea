// cmv's hooks inside the real Claude Code CLI (each client under test, offline against the mock API): installed
// with `cmv hook install` next to a hook of someone else's, the PreCompact hook fires on `/compact`
// in -p mode, snapshots and trims the log in place (backup kept), the other hook still fires, and
// the session resumes afterwards. Then restore, status and uninstall.

import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientsUnderTest, encodeProjectDir, offlineEnv, rewriteSessionId, runClaude } from './claude-client.js';
import { start as startMock, type MockApi } from './mock-api.js';
import { ROOT, buildIfStale, runCmv } from '../helpers/built-cli.js';

const clients = clientsUnderTest();

describe.skipIf(clients.length === 0)('cmv hooks in the real Claude Code CLI', () => {
  for (const client of clients)
    describe(`Claude Code ${client.version}`, () => {
      let scratch: string;
      let home: string;
      let project: string;
      let sessionId: string;
      let log: string;
      let mock: MockApi;
      let cmvEnv: Record<string, string>;
      let claudeEnv: Record<string, string>;

      beforeAll(async () => {
        await buildIfStale();
        scratch = realpathSync(mkdtempSync(join(tmpdir(), 'cmv-hook-e2e-')));
        home = join(scratch, 'home');
        project = join(scratch, 'project');
        mkdirSync(project, { recursive: true });
        sessionId = randomUUID();
        const projectDir = join(home, '.claude', 'projects', encodeProjectDir(project));
        mkdirSync(projectDir, { recursive: true });
        log = join(projectDir, `${sessionId}.jsonl`);
        writeFileSync(log, rewriteSessionId(readFileSync(join(ROOT, 'sample-sessions', 'coding.jsonl'), 'utf8'), sessionId));
        // Someone else's hook, and another setting, that cmv must leave alone.
        writeFileSync(
          join(home, '.claude', 'settings.json'),
          JSON.stringify({ theme: 'dark', hooks: { PreCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command: `echo other-hook-ran >> ${join(scratch, 'other.txt')}` }] }] } }, null, 2),
        );
        cmvEnv = { HOME: home, CMV_HOME: join(scratch, 'cmv-data'), XDG_CONFIG_HOME: join(scratch, 'config'), NO_COLOR: '1' };
        mock = await startMock({ maxLifetimeMs: 5 * 60_000 });
        claudeEnv = offlineEnv(mock.url, cmvEnv);
      }, 180_000);

      afterAll(async () => {
        await mock?.close();
        if (scratch && process.env.CMV_E2E_KEEP !== '1') rmSync(scratch, { recursive: true, force: true });
      });

      it('installs beside the other hook without touching it', () => {
        const run = runCmv(['hook', 'install', '--size-guard'], cmvEnv);
        expect(run.code, run.stderr).toBe(0);
        const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'));
        expect(settings.theme).toBe('dark');
        const commands = settings.hooks.PreCompact.flatMap((g: { hooks: { command: string }[] }) => g.hooks.map((h) => h.command));
        expect(commands).toHaveLength(2);
        expect(commands[0]).toContain('other-hook-ran');
        expect(commands[1]).toMatch(/cmv\.js hook run pre-compact$/);
        expect(settings.hooks.PostToolUse[0]).toMatchObject({ matcher: '*', hooks: [{ type: 'command' }] });
        // Installing twice changes nothing.
        expect(runCmv(['hook', 'install', '--size-guard'], cmvEnv).stdout).toContain('nothing to change');
      });

      it('fires on /compact: the log is trimmed in place with a backup, and the other hook still runs', async () => {
        const before = statSync(log).size;
        const run = await runClaude(['-p', '/compact', '--resume', sessionId, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], project, claudeEnv, 90_000, client);
        expect(run.exitCode, run.stderr).toBe(0);
        expect(readFileSync(join(scratch, 'other.txt'), 'utf8')).toContain('other-hook-ran');

        const records = readFileSync(join(cmvEnv.CMV_HOME, 'hooks', 'trims.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(records).toHaveLength(1);
        const record = records[0];
        expect(record).toMatchObject({ by: 'pre-compact', path: log, sessionId });
        // Claude Code appends its queue lines for `/compact` before the hook runs.
        expect(record.bytesBefore).toBeGreaterThanOrEqual(before);
        expect(record.bytesAfter).toBeLessThan(record.bytesBefore);
        expect(record.tokensAfter).toBeLessThan(record.tokensBefore);
        expect(readFileSync(record.backup).length).toBe(record.bytesBefore);
        if (record.snapshot === undefined) {
          // Only a machine without git may skip the snapshot, and the hook log says why.
          expect(readFileSync(join(cmvEnv.CMV_HOME, 'hooks', 'hook.log'), 'utf8')).toContain('snapshot skipped');
        }

        // Claude Code compacted the trimmed log and recorded what the hook printed.
        const text = readFileSync(log, 'utf8');
        expect(text).toContain('"subtype":"compact_boundary"');
        expect(text).toContain('cmv: trimmed the log');
        // The stubs stay. (Lines the trim removed whole, such as thinking-only messages, Claude Code
        // records again from memory before compacting: they come back at the end as side branches.)
        expect(text).toMatch(/ lines elided\]/);
      });

      it('leaves a log that Claude Code resumes', async () => {
        const sent = mock.requests.length;
        const run = await runClaude(['-p', 'hi', '--resume', sessionId, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], project, claudeEnv, 90_000, client);
        expect(run.exitCode, run.stderr).toBe(0);
        const main = mock.requests.slice(sent).filter((r) => r.kind === 'main' && r.path === '/v1/messages');
        expect(main.length).toBeGreaterThan(0);
        const messages = main.at(-1)?.body.messages as { role: string }[];
        expect(messages.length).toBeGreaterThan(1);
        expect(JSON.parse(run.stdout).session_id).toBe(sessionId);
      });

      it('shows the trim in status, restores the log, and uninstalls only its own hooks', () => {
        const status = JSON.parse(runCmv(['hook', 'status', '--json'], cmvEnv, { cwd: project }).stdout);
        expect(status.totals.trims).toBe(1);
        expect(status.scopes.find((s: { scope: string }) => s.scope === 'user').hooks.map((h: { kind: string }) => h.kind)).toEqual(['pre-compact', 'size-guard']);

        const restore = runCmv(['hook', 'restore', log], cmvEnv);
        expect(restore.code, restore.stderr).toBe(0);
        expect(readFileSync(log, 'utf8')).toContain('"type":"thinking"');
        const state = JSON.parse(readFileSync(join(cmvEnv.CMV_HOME, 'hooks', 'state.json'), 'utf8'));
        expect(state[log].bytes).toBe(statSync(log).size);

        expect(runCmv(['hook', 'uninstall'], cmvEnv).code).toBe(0);
        const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'));
        expect(settings.hooks.PostToolUse).toBeUndefined();
        expect(settings.hooks.PreCompact).toEqual([{ matcher: 'manual', hooks: [{ type: 'command', command: `echo other-hook-ran >> ${join(scratch, 'other.txt')}` }] }]);
        expect(existsSync(join(cmvEnv.CMV_HOME, 'settings-backups'))).toBe(true);
      });
    });
});
