// How a command speaks: human text on stdout, or with --json exactly one JSON document on stdout
// and nothing else; messages and warnings always on stderr.

import chalk from 'chalk';
import { printable } from '../text/terminal-text.js';

/** Text for the terminal: control sequences from logs and bundles dropped, cmv's own colours kept. */
export function forTerminal(text: string): string {
  return printable(text, chalk.level > 0);
}

export interface OutputOptions {
  json?: boolean;
}

export class Output {
  readonly json: boolean;
  private readonly stdout: NodeJS.WritableStream;
  private readonly stderr: NodeJS.WritableStream;

  constructor(options: OutputOptions = {}, stdout: NodeJS.WritableStream = process.stdout, stderr: NodeJS.WritableStream = process.stderr) {
    this.json = options.json === true;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** Prints a result: as JSON with --json, else through the text renderer. */
  render<T>(result: T, renderText: (result: T) => string, toJson: (result: T) => unknown = (r) => r): void {
    if (this.json) {
      this.stdout.write(`${JSON.stringify(toJson(result), null, 2)}\n`);
    } else {
      const text = forTerminal(renderText(result));
      if (text) this.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    }
  }

  warn(message: string): void {
    this.stderr.write(`${chalk.yellow('cmv: warning:')} ${forTerminal(message)}\n`);
  }

  info(message: string): void {
    this.stderr.write(`${forTerminal(message)}\n`);
  }
}
