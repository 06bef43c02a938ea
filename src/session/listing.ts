// `cmv sessions`: every session cmv can see, newest first, with the facts a person uses to pick one.

import { claudeConfigDirs, listSessionFiles } from './locate.js';
import { peekSession, shorten } from './summary.js';

export interface SessionListing {
  id: string;
  path: string;
  cwd?: string;
  firstPrompt?: string;
  lines: number;
  bytes: number;
  lastActivity: string;
  version?: string;
  model?: string;
}

export interface ListOptions {
  /** Keep sessions whose cwd (or project folder) contains this text. */
  project?: string;
  configDirs?: string[];
}

export async function listSessions(options: ListOptions = {}): Promise<SessionListing[]> {
  const files = await listSessionFiles(options.configDirs ?? claudeConfigDirs());
  const listings: SessionListing[] = [];
  for (const file of files) {
    const peek = await peekSession(file.path);
    const listing: SessionListing = {
      id: file.id,
      path: file.path,
      cwd: peek.cwd,
      firstPrompt: peek.firstPrompt ? shorten(peek.firstPrompt, 80) : undefined,
      lines: peek.lines,
      bytes: file.bytes,
      lastActivity: new Date(file.modifiedMs).toISOString(),
      version: peek.version,
      model: peek.model,
    };
    if (options.project) {
      const needle = options.project.toLowerCase();
      if (!(listing.cwd ?? file.projectFolder).toLowerCase().includes(needle) && !file.projectFolder.toLowerCase().includes(needle)) continue;
    }
    listings.push(listing);
  }
  return listings;
}
