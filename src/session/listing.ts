// `cmv sessions`: every session cmv can see, newest first, with the facts a person uses to pick one.

import { claudeConfigDirs, listSessionFiles, type SessionFile } from './locate.js';
import { peekSession, shorten, type SessionPeek } from './summary.js';

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
  /** A session cmv made from another (trim, branch, compact): its responses are that one's spend. */
  derivedFrom?: { sessionId?: string; by?: string };
}

export interface ListOptions {
  /** Keep sessions whose cwd (or project folder) contains this text. */
  project?: string;
  configDirs?: string[];
}

/** What a listing shows of one log, from its file's stat and a peek at its head and tail. */
export function listingOf(file: SessionFile, peek: SessionPeek): SessionListing {
  return {
    id: file.id,
    path: file.path,
    cwd: peek.cwd,
    firstPrompt: peek.firstPrompt ? shorten(peek.firstPrompt, 80) : undefined,
    lines: peek.lines,
    bytes: file.bytes,
    lastActivity: new Date(file.modifiedMs).toISOString(),
    version: peek.version,
    model: peek.model,
    derivedFrom: peek.derivedFrom,
  };
}

export async function listSessions(options: ListOptions = {}): Promise<SessionListing[]> {
  const files = await listSessionFiles(options.configDirs ?? claudeConfigDirs());
  const listings: SessionListing[] = [];
  for (const file of files) {
    const listing = listingOf(file, await peekSession(file.path));
    if (options.project) {
      const needle = options.project.toLowerCase();
      if (!(listing.cwd ?? file.projectFolder).toLowerCase().includes(needle) && !file.projectFolder.toLowerCase().includes(needle)) continue;
    }
    listings.push(listing);
  }
  return listings;
}
