// The result side of the trim on small hand-built sessions (Claude Code 2.1.x line shapes): edit
// confirmations without the path their call names,
// results a later identical call superseded. Each rule: what goes, what stays, and that the trim
// still verifies.

import { afterAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { SUPERSEDE_RULES, supersedeKey } from '../../src/trim/superseded.js';
import { CONFIRMATION_RULES, STUB_WORDING_RULES, shortenConfirmation, stubToolInput, stubToolText } from '../../src/trim/stubs.js';
import { SessionBuilder, CWD, removeWrittenSessions, readOutput, recordsOf, resultContent } from './session-builder.js';

const P = (rel: string) => `${CWD}/${rel}`;

afterAll(removeWrittenSessions);

function conversation(): SessionBuilder {
  const b = new SessionBuilder();
  b.user('Why does the January report miss the 31st?');
  return b;
}

describe('edit confirmations', () => {
  it('drops the path the call names from a short confirmation, under the threshold too', async () => {
    const b = conversation();
    const edit = b.toolCall('Edit', { file_path: P('src/report.ts'), old_string: 'a < b', new_string: 'a <= b' }, `The file ${P('src/report.ts')} has been updated successfully.`);
    const write = b.toolCall('Write', { file_path: P('src/new.ts'), content: 'export {};' }, `File created successfully at: ${P('src/new.ts')}`);
    const failed = b.toolCall(
      'Edit',
      { file_path: P('src/x.ts'), old_string: 'q', new_string: 'r' },
      `<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>`,
      { isError: true },
    );
    b.assistant([{ type: 'text', text: 'Fixed.' }]);
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(resultContent(records, edit.id)).toBe('Updated.');
    expect(resultContent(records, write.id)).toBe('Created.');
    // An error is the model's understanding of what went wrong: whole.
    expect(resultContent(records, failed.id)).toContain('File has not been read yet');
    expect(result.removed.confirmationsShortened).toBe(2);
    expect(result.verify.ok).toBe(true);
  });

  it("drops the 2.1.x note that the file state is current in the model's context, with the path", async () => {
    const note = ' (file state is current in your context — no need to Read it back)';
    const b = conversation();
    const edit = b.toolCall('Edit', { file_path: P('src/report.ts'), old_string: 'a < b', new_string: 'a <= b' }, `The file ${P('src/report.ts')} has been updated successfully.${note}`);
    const write = b.toolCall('Write', { file_path: P('src/new.ts'), content: 'export {};' }, `File created successfully at: ${P('src/new.ts')}${note}`);
    b.assistant([{ type: 'text', text: 'Fixed.' }]);
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(resultContent(records, edit.id)).toBe('Updated.');
    expect(resultContent(records, write.id)).toBe('Created.');
    expect(result.verify.ok).toBe(true);
  });

  it('stubs the file snippet of a confirmation under the threshold', async () => {
    const b = conversation();
    const text = `The file ${P('src/report.ts')} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${readOutput(3)}`;
    expect(text.length).toBeLessThan(500);
    const edit = b.toolCall('Edit', { file_path: P('src/report.ts'), old_string: 'a < b', new_string: 'a <= b' }, text);
    b.assistant([{ type: 'text', text: 'Fixed.' }]);
    const result = await trimSession(b.write());
    expect(resultContent(recordsOf(result.lines), edit.id)).toBe('[cmv: Updated; its file snippet elided]');
    expect(result.verify.ok).toBe(true);
  });

  it('changes nothing more when the trimmed log is trimmed again', async () => {
    const b = conversation();
    b.toolCall('Edit', { file_path: P('src/report.ts'), old_string: 'a < b', new_string: 'a <= b' }, `The file ${P('src/report.ts')} has been updated successfully.`);
    b.assistant([{ type: 'text', text: 'Fixed.' }]);
    const once = await trimSession(b.write());
    const again = new SessionBuilder();
    for (const record of recordsOf(once.lines)) again.raw(record);
    const twice = await trimSession(again.write());
    expect(twice.removed.confirmationsShortened).toBe(0);
  });
});

describe('confirmations their call already shows (CONFIRMATION_RULES)', () => {
  it('says an applied edit or write in one word, with or without the path in the result', async () => {
    const b = conversation();
    // 2.1.x writes some edit confirmations without the path.
    const edit = b.toolCall('Edit', { file_path: P('src/report.ts'), old_string: 'a < b', new_string: 'a <= b' }, 'The file has been updated successfully.');
    const created = b.toolCall('Write', { file_path: P('src/new.ts'), content: 'export {};' }, 'File created successfully.');
    // Not a confirmation the rules know (replace_all's names what it replaced): kept.
    const all = b.toolCall(
      'Edit',
      { file_path: P('src/report.ts'), old_string: 'x', new_string: 'y', replace_all: true },
      "The file has been updated. All occurrences of 'x' were successfully replaced with 'y'.",
    );
    b.assistant([{ type: 'text', text: 'Fixed.' }]);
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(resultContent(records, edit.id)).toBe('Updated.');
    expect(resultContent(records, created.id)).toBe('Created.');
    expect(resultContent(records, all.id)).toBe("The file has been updated. All occurrences of 'x' were successfully replaced with 'y'.");
    expect(result.removed.confirmationsShortened).toBe(2);
    expect(result.verify.ok).toBe(true);
  });

  it("drops what a task-list confirmation repeats of its call, keeping the task's number", async () => {
    const b = conversation();
    const create = b.toolCall('TaskCreate', { subject: 'Fix the bound', description: 'Make the end date inclusive.', activeForm: 'Fixing the bound' }, 'Task #1 created successfully: Fix the bound');
    const update = b.toolCall('TaskUpdate', { taskId: '1', status: 'completed' }, 'Updated task #1 status');
    // The result names another task, or a subject the call does not set: kept whole.
    const other = b.toolCall('TaskUpdate', { taskId: '2', status: 'completed' }, 'Updated task #3 status');
    const renamed = b.toolCall('TaskCreate', { subject: 'Check', description: 'x' }, 'Task #4 created successfully: Check the totals');
    const failed = b.toolCall('TaskUpdate', { taskId: '9', status: 'completed' }, 'Updated task #9 status', { isError: true });
    b.assistant([{ type: 'text', text: 'Done.' }]);
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(resultContent(records, create.id)).toBe('Task #1 created.');
    expect(resultContent(records, update.id)).toBe('Updated.');
    expect(resultContent(records, other.id)).toBe('Updated task #3 status');
    expect(resultContent(records, renamed.id)).toBe('Task #4 created successfully: Check the totals');
    expect(resultContent(records, failed.id)).toBe('Updated task #9 status');
    expect(result.removed.confirmationsShortened).toBe(2);
    expect(result.verify.ok).toBe(true);
  });

  it('has an id, a reason and an example for each rule, each shorter than what it replaces', () => {
    expect(new Set(CONFIRMATION_RULES.map((r) => r.id)).size).toBe(CONFIRMATION_RULES.length);
    for (const rule of CONFIRMATION_RULES) {
      expect(rule.why.length).toBeGreaterThan(20);
      const [, after] = rule.example.split(' -> ');
      expect(after.length).toBeGreaterThan(0);
    }
    expect(shortenConfirmation('TaskUpdate', 'Updated task #3 status, owner', { taskId: '3', status: 'completed', owner: 'me' })).toBe('Updated.');
    expect(shortenConfirmation('TaskUpdate', 'Updated task #3 owner', { taskId: '3', status: 'completed' })).toBeUndefined();
    expect(shortenConfirmation('Bash', 'The file has been updated successfully.', {})).toBeUndefined();
  });
});

describe('stub wordings (STUB_WORDING_RULES)', () => {
  it('words each stub as its rule says', () => {
    const after = (id: string) => STUB_WORDING_RULES.find((r) => r.id === id)!.example.split(' -> ')[1];
    expect(stubToolText({ name: 'Read', input: { file_path: P('src/a.ts') } }, readOutput(847), false, CWD)).toBe(after('stub.no-fetch-again-hint'));
    const output = Array.from({ length: 49 }, (_, i) => `line ${i} of the build output, short enough`).join('\n');
    expect(stubToolText({ name: 'Bash', input: { command: 'make' } }, output, false, CWD).split('\n')[0]).toBe(after('stub.bash-size-in-lines'));
    expect(stubToolInput(readOutput(40))).toBe(after('stub.input-on-disk'));
    for (const name of ['Grep', 'Glob', 'WebFetch', 'WebSearch']) expect(stubToolText({ name, input: {} }, readOutput(50), false, CWD)).not.toMatch(/if needed/);
  });
});

describe('results a later identical call superseded', () => {
  it.each(SUPERSEDE_RULES.flatMap((rule) => [...rule.examples.same.map(([a, b]) => [rule.id, a, b, true] as const), ...rule.examples.other.map(([a, b]) => [rule.id, a, b, false] as const)]))(
    '%s: %j and %j are the same call: %s',
    (id, a, b, same) => {
      const rule = SUPERSEDE_RULES.find((r) => r.id === id)!;
      const keyA = supersedeKey(rule.tools[0], a, CWD);
      const keyB = supersedeKey(rule.tools[0], b, CWD);
      if (same) expect(keyA).toBeDefined();
      expect(keyA !== undefined && keyA === keyB).toBe(same);
    },
  );

  const status = (files: string[]) =>
    `On branch main\nChanges not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n${files.map((f) => `\tmodified:   ${f}`).join('\n')}\n\nno changes added to commit (use "git add" and/or "git commit -a")`;

  it('points an earlier small result to the later twin whose result is kept, by its id', async () => {
    const b = conversation();
    const firstRead = b.toolCall('Read', { file_path: P('src/report.ts') }, readOutput(4));
    const firstStatus = b.toolCall('Bash', { command: 'git status', description: 'See what changed' }, status(['src/report.ts', 'src/old.ts', 'src/other.ts']));
    const grep = b.toolCall('Grep', { pattern: 'month_bounds', path: CWD }, `Found 2 files\n${P('src/report.ts')}\n${P('src/bounds.ts')}`);
    b.assistant([{ type: 'text', text: 'The bound is exclusive.' }]);
    const edit = b.toolCall('Edit', { file_path: P('src/report.ts'), old_string: 'a < b', new_string: 'a <= b' }, `The file ${P('src/report.ts')} has been updated successfully.`);
    const laterRead = b.toolCall(
      'Read',
      { file_path: P('src/report.ts') },
      readOutput(3, (i) => `export const value${i} = inclusive(${i});`),
    );
    const laterStatus = b.toolCall('Bash', { command: 'git status', description: 'Check again' }, status(['src/report.ts', 'src/bounds.ts']));
    b.assistant([{ type: 'text', text: 'Fixed.' }]);
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(resultContent(records, firstRead.id)).toBe(`[cmv: 4 lines / ${readOutput(4).length} chars elided; the same Read ran again later (${laterRead.id}), its result is kept]`);
    expect(resultContent(records, firstStatus.id)).toContain(`the same Bash ran again later (${laterStatus.id})`);
    expect(resultContent(records, laterRead.id)).toBe(readOutput(3, (i) => `export const value${i} = inclusive(${i});`));
    expect(resultContent(records, laterStatus.id)).toContain('modified:   src/bounds.ts');
    // Asked once only: kept.
    expect(resultContent(records, grep.id)).toContain('src/bounds.ts');
    expect(resultContent(records, edit.id)).toBe('Updated.');
    expect(result.removed.supersededResults).toBe(2);
    expect(result.verify.ok).toBe(true);
  });

  it('keeps a result whose twin says only that the file is unchanged, errs, or reads another range', async () => {
    const b = conversation();
    const read = b.toolCall('Read', { file_path: P('src/report.ts') }, readOutput(4));
    b.toolCall(
      'Read',
      { file_path: P('src/report.ts') },
      'File unchanged since last read. The content from the earlier Read tool_result in this conversation is still current — refer to that instead of re-reading.',
    );
    const firstStatus = b.toolCall('Bash', { command: 'git status' }, status(['a.ts', 'b.ts', 'c.ts']));
    b.toolCall('Bash', { command: 'git status' }, 'fatal: not a git repository (or any of the parent directories): .git', { isError: true });
    const head = b.toolCall('Read', { file_path: P('src/bounds.ts') }, readOutput(4));
    b.toolCall('Read', { file_path: P('src/bounds.ts'), offset: 100 }, readOutput(4));
    b.assistant([{ type: 'text', text: 'Nothing to change.' }]);
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(resultContent(records, read.id)).toBe(readOutput(4));
    expect(resultContent(records, firstStatus.id)).toBe(status(['a.ts', 'b.ts', 'c.ts']));
    expect(resultContent(records, head.id)).toBe(readOutput(4));
    expect(result.removed.supersededResults).toBe(0);
  });

  it('keeps a result whose twin lies on another branch of the conversation', async () => {
    const b = conversation();
    const fork = b.tip;
    const read = b.toolCall('Read', { file_path: P('src/report.ts') }, readOutput(4));
    b.assistant([{ type: 'text', text: 'First look.' }]);
    // A rewind: the user went back to the prompt and asked again; the later read is on the resumed branch only.
    b.tip = fork;
    b.user('Look again, from the start.');
    b.toolCall('Read', { file_path: P('src/report.ts') }, readOutput(4));
    b.assistant([{ type: 'text', text: 'Second look.' }]);
    const result = await trimSession(b.write());
    expect(resultContent(recordsOf(result.lines), read.id)).toBe(readOutput(4));
    expect(result.removed.supersededResults).toBe(0);
  });
});

describe('failed edits whose error repeats the old_string', () => {
  const oldString = Array.from({ length: 6 }, (_, i) => `  const bound${i} = end < last; // exclusive end bound number ${i}`).join('\n');

  it('points the repeat back to the call, keeping the reason', async () => {
    const b = conversation();
    const edit = b.toolCall(
      'Edit',
      { file_path: P('src/report.ts'), old_string: oldString, new_string: 'x' },
      `<tool_use_error>String to replace not found in file.\nString: ${oldString}</tool_use_error>`,
      { isError: true },
    );
    b.assistant([{ type: 'text', text: 'The text moved; reading the file again.' }]);
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(resultContent(records, edit.id)).toBe('<tool_use_error>String to replace not found in file.\nString: [cmv: the old_string of this call, word for word]</tool_use_error>');
    // The call still shows it.
    expect(JSON.stringify(records)).toContain('exclusive end bound number 5');
    expect(result.removed.errorEchoesStubbed).toBe(1);
    expect(result.verify.ok).toBe(true);
  });

  it('keeps an error whose repeat differs from the call, or is short', async () => {
    const b = conversation();
    const text = `String to replace not found in file.\nString: ${oldString.replace('number 3', 'nr 3')}`;
    const edit = b.toolCall('Edit', { file_path: P('src/report.ts'), old_string: oldString, new_string: 'x' }, text, { isError: true });
    const short = b.toolCall('Edit', { file_path: P('src/report.ts'), old_string: 'a < b', new_string: 'x' }, 'String to replace not found in file.\nString: a < b', { isError: true });
    b.assistant([{ type: 'text', text: 'Reading the file again.' }]);
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(resultContent(records, edit.id)).toBe(text);
    expect(resultContent(records, short.id)).toBe('String to replace not found in file.\nString: a < b');
    expect(result.removed.errorEchoesStubbed).toBe(0);
  });
});
