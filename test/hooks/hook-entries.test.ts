import { describe, expect, it } from 'vitest';
import { cmvHookKind, findCmvHooks, hookCommand, withCmvHooks, withoutCmvHooks, type Settings } from '../../src/hooks/hook-entries.js';
import { sizeGuardDecision } from '../../src/hooks/size-guard.js';

const PREFIX = "/usr/bin/node '/opt/my tools/cmv/bin/cmv.js'";
const theirs: Settings = {
  model: 'opus',
  hooks: {
    PreCompact: [{ matcher: 'auto', hooks: [{ type: 'command', command: 'backup-transcript.sh' }] }],
    PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'prettier --write' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};

describe('cmv entries in Claude Code settings', () => {
  it("recognises its own commands however cmv is started, and nobody else's", () => {
    expect(cmvHookKind(hookCommand(PREFIX, 'pre-compact'))).toBe('pre-compact');
    expect(cmvHookKind('cmv hook run size-guard')).toBe('size-guard');
    expect(cmvHookKind('npx cmv hook run pre-compact')).toBe('pre-compact');
    expect(cmvHookKind('mycmvtool hook run pre-compact')).toBeUndefined();
    expect(cmvHookKind('backup-transcript.sh')).toBeUndefined();
  });

  it('adds its hooks after the others and keeps every other setting and hook as it was', () => {
    const next = withCmvHooks(theirs, [
      { kind: 'pre-compact', command: hookCommand(PREFIX, 'pre-compact'), timeout: 40 },
      { kind: 'size-guard', command: hookCommand(PREFIX, 'size-guard'), timeout: 40 },
    ]);
    expect(next.model).toBe('opus');
    expect(next.hooks?.Stop).toEqual(theirs.hooks?.Stop);
    expect(next.hooks?.PreCompact).toEqual([theirs.hooks!.PreCompact[0], { hooks: [{ type: 'command', command: hookCommand(PREFIX, 'pre-compact'), timeout: 40 }] }]);
    expect(next.hooks?.PostToolUse[1]).toEqual({ matcher: '*', hooks: [{ type: 'command', command: hookCommand(PREFIX, 'size-guard'), timeout: 40 }] });
    expect(findCmvHooks(next).map((h) => [h.kind, h.event])).toEqual([
      ['pre-compact', 'PreCompact'],
      ['size-guard', 'PostToolUse'],
    ]);
  });

  it('replaces its own entry on a second install instead of adding another', () => {
    const once = withCmvHooks(theirs, [{ kind: 'pre-compact', command: 'cmv hook run pre-compact', timeout: 40 }]);
    const twice = withCmvHooks(once, [{ kind: 'pre-compact', command: hookCommand(PREFIX, 'pre-compact'), timeout: 20 }]);
    expect(findCmvHooks(twice)).toEqual([{ kind: 'pre-compact', event: 'PreCompact', command: hookCommand(PREFIX, 'pre-compact'), timeout: 20, matcher: undefined }]);
  });

  it('removes only its own hooks, and the groups and events that leaves empty', () => {
    const installed = withCmvHooks(theirs, [
      { kind: 'pre-compact', command: 'cmv hook run pre-compact', timeout: 40 },
      { kind: 'size-guard', command: 'cmv hook run size-guard', timeout: 40 },
    ]);
    expect(withoutCmvHooks(installed, ['pre-compact', 'size-guard'])).toEqual(theirs);
    const guardOnly = withoutCmvHooks(installed, ['size-guard']);
    expect(findCmvHooks(guardOnly).map((h) => h.kind)).toEqual(['pre-compact']);
    expect(withoutCmvHooks(withCmvHooks({}, [{ kind: 'pre-compact', command: 'cmv hook run pre-compact', timeout: 1 }]), ['pre-compact'])).toEqual({});
  });

  it("keeps a cmv command that shares a group with someone else's hook out of their way", () => {
    const shared: Settings = {
      hooks: {
        PreCompact: [
          {
            hooks: [
              { type: 'command', command: 'theirs.sh' },
              { type: 'command', command: 'cmv hook run pre-compact' },
            ],
          },
        ],
      },
    };
    expect(withoutCmvHooks(shared, ['pre-compact'])).toEqual({ hooks: { PreCompact: [{ hooks: [{ type: 'command', command: 'theirs.sh' }] }] } });
  });
});

describe('the size guard', () => {
  const MB = 1024 * 1024;
  it('waits until the log grew past the threshold since its last trim', () => {
    expect(sizeGuardDecision(3 * MB, { bytes: 1 * MB, at: '' }, 4 * MB)).toEqual({ action: 'wait', grown: 2 * MB });
    expect(sizeGuardDecision(5 * MB, { bytes: 1 * MB, at: '' }, 4 * MB)).toEqual({ action: 'trim', grown: 4 * MB });
  });

  it('measures a log it never trimmed from zero', () => {
    expect(sizeGuardDecision(5 * MB, undefined, 4 * MB).action).toBe('trim');
    expect(sizeGuardDecision(1 * MB, undefined, 4 * MB).action).toBe('wait');
  });

  it('starts measuring again from a log that shrank (restored or trimmed elsewhere)', () => {
    expect(sizeGuardDecision(2 * MB, { bytes: 3 * MB, at: '' }, 4 * MB)).toEqual({ action: 'rebase', bytes: 2 * MB });
  });
});
