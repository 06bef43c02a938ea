// The one error type of cmv: a stable code, a message saying what happened, and a hint saying
// what to do. The CLI maps codes to exit codes in one place (src/cli/exit-codes.ts).

export type CmvErrorCode = 'USAGE' | 'NOT_FOUND' | 'AMBIGUOUS' | 'BAD_INPUT' | 'IO' | 'VERIFY_FAILED' | 'BUDGET_UNMET' | 'CONFLICT' | 'INTERNAL';

export class CmvError extends Error {
  readonly code: CmvErrorCode;
  readonly hint?: string;
  readonly details?: unknown;

  constructor(code: CmvErrorCode, message: string, options: { hint?: string; details?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CmvError';
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
  }
}

export function isCmvError(value: unknown): value is CmvError {
  return value instanceof CmvError;
}

/** Wraps a Node system error (ENOENT, EACCES, ...) in a CmvError that says what to do. */
export function fromSystemError(error: unknown, path: string): CmvError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') {
    return new CmvError('NOT_FOUND', `no such file: ${path}`, { hint: 'check the path, or run `cmv sessions` to list sessions', cause: error });
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new CmvError('IO', `permission denied: ${path}`, { hint: 'check the file permissions', cause: error });
  }
  if (code === 'EISDIR') {
    return new CmvError('BAD_INPUT', `${path} is a directory, not a session log`, { hint: 'pass a .jsonl file, a session id or `latest`', cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CmvError('IO', `cannot access ${path}: ${message}`, { cause: error });
}
