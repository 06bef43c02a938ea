// cmv's entries in Claude Code's `hooks` settings, added and removed without touching anyone
// else's. Pure: a settings object in, a new settings object out. Claude Code's shape is
// { hooks: { <Event>: [ { matcher?, hooks: [ { type: "command", command, timeout? } ] } ] } }.

export type HookKind = 'pre-compact' | 'size-guard';

export const HOOK_EVENTS: Record<HookKind, string> = {
  'pre-compact': 'PreCompact',
  'size-guard': 'PostToolUse',
};

export interface CommandHook {
  type: 'command';
  command: string;
  timeout?: number;
  [other: string]: unknown;
}

export interface MatcherGroup {
  matcher?: string;
  hooks: CommandHook[];
  [other: string]: unknown;
}

export type Settings = Record<string, unknown> & { hooks?: Record<string, MatcherGroup[]> };

/** `<prefix> hook run <kind>`: the words that make a command cmv's. */
const OURS = /(?:^|\s|\/|')cmv(?:\.js)?'?\s+hook\s+run\s+(pre-compact|size-guard)\b/;

export function cmvHookKind(command: unknown): HookKind | undefined {
  if (typeof command !== 'string') return undefined;
  return OURS.exec(command)?.[1] as HookKind | undefined;
}

export function hookCommand(prefix: string, kind: HookKind): string {
  return `${prefix} hook run ${kind}`;
}

function groupsOf(settings: Settings, event: string): MatcherGroup[] {
  const hooks = settings.hooks;
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return [];
  const groups = hooks[event];
  return Array.isArray(groups) ? groups : [];
}

export interface FoundHook {
  kind: HookKind;
  event: string;
  command: string;
  timeout?: number;
  matcher?: string;
}

export function findCmvHooks(settings: Settings): FoundHook[] {
  const found: FoundHook[] = [];
  for (const kind of Object.keys(HOOK_EVENTS) as HookKind[]) {
    const event = HOOK_EVENTS[kind];
    for (const group of groupsOf(settings, event)) {
      for (const hook of Array.isArray(group?.hooks) ? group.hooks : []) {
        if (cmvHookKind(hook?.command) === kind) found.push({ kind, event, command: hook.command, timeout: hook.timeout, matcher: group.matcher });
      }
    }
  }
  return found;
}

/** The settings without the cmv hooks of these kinds; groups and events left empty go too. */
export function withoutCmvHooks(settings: Settings, kinds: HookKind[]): Settings {
  if (!settings.hooks || typeof settings.hooks !== 'object' || Array.isArray(settings.hooks)) return settings;
  const hooks: Record<string, MatcherGroup[]> = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept: MatcherGroup[] = [];
    for (const group of groups) {
      if (!group || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const remaining = group.hooks.filter((h) => {
        const kind = cmvHookKind(h?.command);
        return !(kind && kinds.includes(kind) && HOOK_EVENTS[kind] === event);
      });
      if (remaining.length === group.hooks.length) kept.push(group);
      else if (remaining.length > 0) kept.push({ ...group, hooks: remaining });
    }
    if (kept.length > 0) hooks[event] = kept;
  }
  const next: Settings = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return next;
}

export interface HookSpec {
  kind: HookKind;
  command: string;
  /** Seconds Claude Code waits before killing the hook. */
  timeout: number;
}

function groupFor(spec: HookSpec): MatcherGroup {
  const hook: CommandHook = { type: 'command', command: spec.command, timeout: spec.timeout };
  // PostToolUse needs a tool matcher ("*": every tool); PreCompact fires for manual and auto alike.
  return spec.kind === 'size-guard' ? { matcher: '*', hooks: [hook] } : { hooks: [hook] };
}

/** The settings with these cmv hooks; earlier cmv entries of the same kinds are replaced. */
export function withCmvHooks(settings: Settings, specs: HookSpec[]): Settings {
  const base = withoutCmvHooks(
    settings,
    specs.map((s) => s.kind),
  );
  const hooks: Record<string, MatcherGroup[]> = { ...(base.hooks ?? {}) };
  for (const spec of specs) {
    const event = HOOK_EVENTS[spec.kind];
    hooks[event] = [...(Array.isArray(hooks[event]) ? hooks[event] : []), groupFor(spec)];
  }
  return { ...base, hooks };
}
