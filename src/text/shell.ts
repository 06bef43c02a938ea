// Commands shown to the user for a shell: quoted once here, for every command cmv prints
// (resume commands, hook commands).

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Claude Code finds `--resume <id>` only in the project folder of the current directory. */
export function resumeCommand(cwd: string | undefined, sessionId: string): string {
  return cwd ? `cd ${shellQuote(cwd)} && claude --resume ${sessionId}` : `claude --resume ${sessionId}`;
}
