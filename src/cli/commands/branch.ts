// `cmv branch <snapshot>`: the snapshot as a new Claude Code session (trimmed by default, with
// `--with-resume` the resume block in front), with the command that resumes it; `--launch` runs it.

import chalk from 'chalk';
import { openStore } from '../../store/store.js';
import { branchSnapshot, type BranchResult } from '../../store/branch.js';
import { launch, launchCommand } from '../../store/launch.js';
import { loadConfigOrDefaults } from '../../config/config-file.js';
import type { Output } from '../output.js';
import { CmvError } from '../../errors.js';
import { formatBytes, formatCount } from '../format.js';
import { trimOptionsOf, type TrimFlags } from '../flags.js';
import { tierOption } from './resume.js';

export interface BranchCommandOptions extends TrimFlags {
  name?: string;
  trim?: boolean;
  launch?: boolean;
  withResume?: boolean;
  tier?: string;
  at?: string;
  projectDir?: string;
}

export async function branchCommand(target: string, opts: BranchCommandOptions, out: Output): Promise<number | void> {
  if (opts.trim === false && Object.values(trimOptionsOf(opts)).some((v) => v !== undefined)) {
    throw new CmvError('USAGE', 'trim options cannot go with --no-trim', { hint: 'drop --no-trim, or the trim options' });
  }
  const config = (await loadConfigOrDefaults()).values;
  // The configured threshold applies as it does to `cmv trim`; a flag still wins.
  const trimOptions = trimOptionsOf(opts, config);
  if (opts.tier !== undefined && !opts.withResume) throw new CmvError('USAGE', '--tier goes with --with-resume', { hint: `cmv branch ${target} --with-resume --tier ${opts.tier}` });
  const resume = opts.withResume ? { tier: tierOption(opts.tier) } : undefined;
  if (opts.at !== undefined && resume)
    throw new CmvError('USAGE', "--at cannot go with --with-resume (the snapshot's resume block tells of what came after the message)", { hint: `cmv branch ${target} --at ${opts.at}` });
  const store = await openStore();
  // Checked before anything is written, so a missing claude fails early.
  const configured = opts.launch ? config['claude.binary'] : undefined;
  const result = await branchSnapshot(store, target, { name: opts.name, trim: opts.trim !== false, trimOptions, resume, at: opts.at, projectDir: opts.projectDir });
  for (const warning of result.warnings) out.warn(warning);
  out.render(result, renderBranch, branchJson);
  if (opts.launch) return launch(launchCommand(result.cwd, result.sessionId, process.env, configured));
}

export function branchJson(r: BranchResult): unknown {
  return {
    name: r.name,
    id: r.id,
    sessionId: r.sessionId,
    path: r.path,
    trimmed: r.trimmed,
    resumeCommand: r.resumeCommand,
    cwd: r.cwd,
    from: r.from,
    bytes: r.bytes,
    tokens: r.tokens ?? null,
    resume: r.resume ? { tier: r.resume.tier, tokens: r.resume.tokens, text: r.resume.text } : null,
    at: r.at ?? null,
    drift: r.drift,
    warnings: r.warnings,
  };
}

export function renderBranch(r: BranchResult): string {
  const from = r.from.name ?? r.from.id.slice(0, 12);
  const size = r.trimmed
    ? `trimmed ${formatBytes(r.bytes.before)} → ${formatBytes(r.bytes.after)}${r.tokens ? `, ${formatCount(r.tokens.before)} → ${formatCount(r.tokens.after)} tokens` : ''}`
    : `not trimmed, ${formatBytes(r.bytes.after)}`;
  return [
    `${chalk.bold('branch')} ${chalk.cyan(r.name)} ${chalk.dim(r.id.slice(0, 12))} from ${from}: ${size}`,
    ...(r.at ? [`forked at message ${r.at.uuid} (line ${formatCount(r.at.line)}): kept ${formatCount(r.at.linesKept)} of ${formatCount(r.at.linesBefore)} lines`] : []),
    ...(r.resume ? [`resume block in front: ${r.resume.tier} tier, ${formatCount(r.resume.tokens)} tokens`] : []),
    `wrote ${r.path}`,
    `resume with: ${chalk.bold(r.resumeCommand)}`,
  ].join('\n');
}
