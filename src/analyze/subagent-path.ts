// Whether a log is a subagent transcript by its place alone (`agent-*.jsonl`, `<session>/subagents/`).
// Its own module, so the analysis threads load it without batch-files' glob library.

export function subagentByPath(path: string): boolean {
  return /(^|[\\/])agent-[^\\/]*\.jsonl$/.test(path) || /[\\/]subagents[\\/]/.test(path);
}
