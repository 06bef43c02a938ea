// `cmv snapshot <session>`: store the session's log as it is now, with its session graph; the
// log is never touched.

import chalk from 'chalk';
import { resolveSessionArg } from '../../session/locate.js';
import { openStore } from '../../store/store.js';
import { takeSnapshot, type SnapshotResult } from '../../store/snapshot.js';
import type { Output } from '../output.js';
import { formatBytes, plural } from '../format.js';

export interface SnapshotCommandOptions {
  name?: string;
  message?: string;
  tag?: string;
}

export function splitTags(text: string | undefined): string[] {
  return text === undefined
    ? []
    : text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
}

export async function snapshotCommand(target: string, opts: SnapshotCommandOptions, out: Output): Promise<void> {
  const path = await resolveSessionArg(target);
  const store = await openStore();
  const result = await takeSnapshot(store, path, { name: opts.name, message: opts.message, tags: splitTags(opts.tag) });
  for (const warning of result.warnings) out.warn(warning);
  out.render(result, renderSnapshot, snapshotJson);
}

export function snapshotJson(r: SnapshotResult): unknown {
  return {
    name: r.name,
    id: r.id,
    parent: r.parent,
    sessionId: r.sessionId,
    lines: r.lines,
    bytes: r.bytes,
    newBytes: r.newBytes,
    pages: r.pages,
    newPages: r.newPages,
    growth: r.growth,
    contextTokens: r.meta.facts.tokens.context,
    graph: r.graph,
    warnings: r.warnings,
  };
}

const GROWTH: Record<SnapshotResult['growth'], string> = {
  first: 'first snapshot of this session',
  append: 'grew by appends since its last snapshot',
  rewrite: 'rewritten since its last snapshot (trimmed or edited)',
};

export function renderSnapshot(r: SnapshotResult): string {
  return [
    `${chalk.bold('snapshot')} ${chalk.cyan(r.name)} ${chalk.dim(r.id.slice(0, 12))}${r.sessionId ? ` of session ${r.sessionId}` : ''}`,
    `  ${plural(r.lines, 'line')}, ${formatBytes(r.bytes)}; stored ${formatBytes(r.newBytes)} new (${r.newPages} of ${r.pages} pages)`,
    `  ${GROWTH[r.growth]}${r.parent ? chalk.dim(` (parent ${r.parent.slice(0, 12)})`) : ''}`,
    `  ${r.graph ? `session graph: ${plural(r.graph.nodes, 'node')}, ${plural(r.graph.edges, 'edge')}` : 'no session graph stored (`cmv diff` rebuilds it from the log)'}`,
  ].join('\n');
}
