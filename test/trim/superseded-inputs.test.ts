// Written texts a later call supersedes, and plans their approved result repeats (issue 16, the
// input side): with the project's files absent, a Write's content or an edit's new_string stays
// whole unless a later applied call of the same conversation shows it again or took it out of the
// file; the last version of a file's text is the resumed model's only copy and is never stubbed.

import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { SUPERSEDED_INPUT_RULES } from '../../src/trim/superseded-inputs.js';
import { SessionBuilder, CWD, recordsOf, removeWrittenSessions, type Json } from './session-builder.js';

afterAll(removeWrittenSessions);

const FILE = `${CWD}/src/steps.ts`;
const OTHER = `${CWD}/src/other.ts`;
const block = (n: number, word: string) => Array.from({ length: n }, (_, i) => `  const ${word}${i} = step(${i}); // ${word}`).join('\n');
const UPDATED = `The file ${FILE} has been updated successfully.`;
const CREATED = `File created successfully at: ${FILE}`;
const absent = { fileHolds: () => false };

function inputOf(records: Json[], id: string): Json {
  for (const r of records) for (const b of r.message?.content ?? []) if (b?.type === 'tool_use' && b.id === id) return b.input;
  throw new Error(`no tool_use ${id}`);
}

async function trimmed(b: SessionBuilder) {
  const path = b.write();
  const result = await trimSession(path, {}, absent);
  expect(result.verify.ok, JSON.stringify(result.verify.faults)).toBe(true);
  return { path, result, records: recordsOf(result.lines) };
}

describe('written texts a later call supersedes, files absent', () => {
  it('a Write a later Write of the same file replaced whole: the earlier content goes, the last stays', async () => {
    const b = new SessionBuilder();
    b.user('Write the steps, then redo them.');
    const first = b.toolCall('Write', { file_path: FILE, content: block(20, 'first') }, CREATED);
    const second = b.toolCall('Write', { file_path: FILE, content: block(20, 'second') }, UPDATED);
    b.assistant([{ type: 'text', text: 'Done.' }]);
    const { result, records } = await trimmed(b);
    expect(inputOf(records, first.id).content).toBe(`[cmv: 20 lines written elided; the later Write ${second.id} replaced the whole file]`);
    expect(inputOf(records, second.id).content).toBe(block(20, 'second'));
    expect(result.removed.supersededTextsStubbed).toBe(1);
  });

  it("an edit's new_string a later edit replaced whole goes; the later new_string stays", async () => {
    const b = new SessionBuilder();
    b.user('Change the steps twice.');
    const first = b.toolCall('Edit', { file_path: FILE, old_string: block(3, 'a'), new_string: block(20, 'b') }, UPDATED);
    const second = b.toolCall('Edit', { file_path: FILE, old_string: `// head\n${block(20, 'b')}`, new_string: block(20, 'c') }, UPDATED);
    const { records } = await trimmed(b);
    expect(inputOf(records, first.id).new_string).toMatch(new RegExp(`^\\[cmv: 20 lines new text elided; the later Edit ${second.id} replaced all of it\\]$`));
    expect(inputOf(records, second.id).new_string).toBe(block(20, 'c'));
  });

  it('a text a later edit of the same file repeats points to it (a failed edit retried alike)', async () => {
    const b = new SessionBuilder();
    b.user('Change the steps.');
    const failed = b.toolCall('Edit', { file_path: FILE, old_string: 'nope', new_string: block(20, 'b') }, 'String to replace not found in file.', { isError: true });
    const retry = b.toolCall('Edit', { file_path: FILE, old_string: 'yes', new_string: block(20, 'b') }, UPDATED);
    const { records } = await trimmed(b);
    expect(inputOf(records, failed.id).new_string).toMatch(new RegExp(`the same text is in the new_string of the later Edit ${retry.id}\\]$`));
    expect(inputOf(records, failed.id).old_string).toBe('nope');
    expect(inputOf(records, retry.id).new_string).toBe(block(20, 'b'));
  });

  it('each edit of a MultiEdit is judged alone: the one a later edit replaced goes, the other stays', async () => {
    const b = new SessionBuilder();
    b.user('Change both blocks, then the first again.');
    const multi = b.toolCall(
      'MultiEdit',
      {
        file_path: FILE,
        edits: [
          { old_string: 'a', new_string: block(20, 'one') },
          { old_string: 'b', new_string: block(20, 'two') },
        ],
      },
      `Applied 2 edits to ${FILE}`,
    );
    const later = b.toolCall('Edit', { file_path: FILE, old_string: block(20, 'one'), new_string: block(20, 'three') }, UPDATED);
    const { records } = await trimmed(b);
    const edits = inputOf(records, multi.id).edits;
    expect(edits[0].new_string).toMatch(new RegExp(`the later Edit ${later.id} replaced all of it\\]$`));
    expect(edits[1].new_string).toBe(block(20, 'two'));
  });

  const kept: { name: string; build: (b: SessionBuilder) => string }[] = [
    {
      name: 'the last version of a file (nothing later holds or replaces it)',
      build: (b) => b.toolCall('Write', { file_path: FILE, content: block(20, 'only') }, CREATED).id,
    },
    {
      name: 'a text a later edit changed only in part',
      build: (b) => {
        const id = b.toolCall('Write', { file_path: FILE, content: block(20, 'w') }, CREATED).id;
        b.toolCall('Edit', { file_path: FILE, old_string: block(2, 'w'), new_string: block(2, 'x') }, UPDATED);
        return id;
      },
    },
    {
      name: 'a text a later Write of another file replaced',
      build: (b) => {
        const id = b.toolCall('Write', { file_path: FILE, content: block(20, 'w') }, CREATED).id;
        b.toolCall('Write', { file_path: OTHER, content: block(20, 'v') }, CREATED);
        return id;
      },
    },
    {
      name: 'a text a later Write failed to replace',
      build: (b) => {
        const id = b.toolCall('Write', { file_path: FILE, content: block(20, 'w') }, CREATED).id;
        b.toolCall('Write', { file_path: FILE, content: block(20, 'v') }, 'File has not been read yet. Read it first before writing to it.', { isError: true });
        return id;
      },
    },
    {
      name: 'a failed edit that a later Write replaced (it never was in the file)',
      build: (b) => {
        const id = b.toolCall('Edit', { file_path: FILE, old_string: 'x', new_string: block(20, 'e') }, 'String to replace not found in file.', { isError: true }).id;
        b.toolCall('Write', { file_path: FILE, content: block(20, 'v') }, UPDATED);
        return id;
      },
    },
  ];
  for (const c of kept) {
    it(`keeps ${c.name}`, async () => {
      const b = new SessionBuilder();
      b.user('Work on the steps.');
      const id = c.build(b);
      b.assistant([{ type: 'text', text: 'Done.' }]);
      const { result, records } = await trimmed(b);
      const input = inputOf(records, id);
      expect(String(input.content ?? input.new_string)).not.toMatch(/^\[cmv: /);
      expect(result.removed.supersededTextsStubbed).toBe(0);
    });
  }

  it("an applied edit's pointer back to a text that goes reads as its replaced text; a failed edit's pointer keeps the text", async () => {
    const content = [block(10, 'head'), block(20, 'middle'), block(10, 'tail')].join('\n');
    for (const failed of [false, true]) {
      const b = new SessionBuilder();
      b.user('Write the steps, change the middle, then redo them.');
      const write = b.toolCall('Write', { file_path: FILE, content }, CREATED);
      const edit = b.toolCall('Edit', { file_path: FILE, old_string: block(20, 'middle'), new_string: 'const middle = steps();' }, failed ? 'String to replace not found in file.' : UPDATED, {
        isError: failed,
      });
      b.toolCall('Write', { file_path: FILE, content: block(20, 'again') }, UPDATED);
      const { result, records } = await trimmed(b);
      if (failed) {
        expect(inputOf(records, write.id).content).toBe(content);
        expect(inputOf(records, edit.id).old_string).toMatch(new RegExp(`a passage of the content of the earlier Write ${write.id}\\]$`));
        expect(result.removed.supersededTextsStubbed).toBe(0);
      } else {
        expect(inputOf(records, write.id).content).toMatch(/the whole file\]$/);
        expect(inputOf(records, edit.id).old_string).toMatch(/^\[cmv: 20 lines replaced\]$/);
        expect(result.removed.repeatedTextsStubbed).toBe(0);
        expect(result.removed.supersededTextsStubbed).toBe(1);
      }
    }
  });

  it('a run of lines a later applied edit replaced goes from the earlier text; the rest stays', async () => {
    const content = [block(10, 'head'), block(20, 'middle'), block(10, 'tail')].join('\n');
    // The later edit's old_string holds the middle run and one line of the tail (context it keeps).
    const old = `${block(20, 'middle')}\n${block(10, 'tail').split('\n')[0]}`;
    const fresh = `  const middle = steps();\n${block(10, 'tail').split('\n')[0]}`;
    for (const laterFailed of [false, true]) {
      const b = new SessionBuilder();
      b.user('Add the steps, then shorten the middle.');
      const first = b.toolCall('Edit', { file_path: FILE, old_string: '// steps', new_string: content }, UPDATED);
      const later = b.toolCall('Edit', { file_path: FILE, old_string: old, new_string: fresh }, laterFailed ? 'String to replace not found in file.' : UPDATED, { isError: laterFailed });
      b.assistant([{ type: 'text', text: 'Done.' }]);
      const { path, result, records } = await trimmed(b);
      if (laterFailed) {
        expect(inputOf(records, first.id).new_string).toBe(content);
        continue;
      }
      // The run: the 20 middle lines and the first tail line, which the later old_string holds.
      expect(inputOf(records, first.id).new_string).toBe(
        `${block(10, 'head')}\n[cmv: 21 lines elided; the later Edit ${later.id} replaced them]\n${block(10, 'tail').split('\n').slice(1).join('\n')}`,
      );
      expect(inputOf(records, later.id).old_string).toMatch(/^\[cmv: 21 lines replaced\]$/);
      expect(inputOf(records, later.id).new_string).toBe(fresh);
      expect(result.removed.supersededTextsStubbed).toBe(1);
      writeFileSync(`${path}.once.jsonl`, result.lines.map((l) => `${l}\n`).join(''));
      const twice = await trimSession(`${path}.once.jsonl`, {}, absent);
      expect(twice.lines.map(String)).toEqual(result.lines.map(String));
    }
  });

  it('a text whose own call failed, or that another file holds, keeps the runs a later edit replaced', async () => {
    const content = [block(10, 'head'), block(20, 'middle')].join('\n');
    for (const shape of ['failed', 'other file'] as const) {
      const b = new SessionBuilder();
      b.user('Add the steps, then shorten the middle.');
      const first = b.toolCall(
        'Edit',
        { file_path: shape === 'other file' ? OTHER : FILE, old_string: '// steps', new_string: content },
        shape === 'failed' ? 'String to replace not found in file.' : UPDATED,
        {
          isError: shape === 'failed',
        },
      );
      b.toolCall('Edit', { file_path: FILE, old_string: block(20, 'middle'), new_string: '  const middle = steps();' }, UPDATED);
      const { records } = await trimmed(b);
      expect(inputOf(records, first.id).new_string).toBe(content);
    }
  });

  it('with the files present, of a text the disk holds in part the runs a later edit replaced go too', async () => {
    const content = [block(10, 'head'), block(20, 'middle'), block(10, 'tail')].join('\n');
    const b = new SessionBuilder();
    b.user('Write the steps, then shorten the middle.');
    const write = b.toolCall('Write', { file_path: FILE, content }, CREATED);
    const later = b.toolCall('Edit', { file_path: FILE, old_string: block(20, 'middle'), new_string: '  const middle = steps();' }, UPDATED);
    const disk = [block(10, 'head'), '  const middle = steps();', block(10, 'tail')].join('\n');
    const result = await trimSession(b.write(), {}, { fileHolds: (path, text) => path === FILE && disk.includes(text), fileLines: (path) => (path === FILE ? new Set(disk.split('\n')) : undefined) });
    expect(result.verify.ok, JSON.stringify(result.verify.faults)).toBe(true);
    const written = inputOf(recordsOf(result.lines), write.id).content as string;
    expect(written).toContain(`[cmv: 20 lines elided; the later Edit ${later.id} replaced them]`);
    expect(written).not.toContain('middle0');
  });

  it('a second trim changes nothing', async () => {
    const b = new SessionBuilder();
    b.user('Write the steps, then redo them.');
    b.toolCall('Write', { file_path: FILE, content: block(20, 'first') }, CREATED);
    b.toolCall('Edit', { file_path: FILE, old_string: block(20, 'first'), new_string: block(20, 'second') }, UPDATED);
    b.toolCall('Write', { file_path: FILE, content: block(20, 'third') }, UPDATED);
    const { path, result } = await trimmed(b);
    expect(result.removed.supersededTextsStubbed).toBe(2);
    writeFileSync(`${path}.once.jsonl`, result.lines.map((l) => `${l}\n`).join(''));
    const twice = await trimSession(`${path}.once.jsonl`, {}, absent);
    expect(twice.lines.map(String)).toEqual(result.lines.map(String));
  });
});

describe('passages quoted from an earlier text that stays', () => {
  it("an edit's new_string carrying lines an earlier edit wrote points back to it for them, and keeps the lines it adds", async () => {
    const b = new SessionBuilder();
    b.user('Add the steps, then one more after them.');
    const first = b.toolCall('Edit', { file_path: FILE, old_string: '// steps', new_string: block(20, 'b') }, UPDATED);
    // The later edit changes the last lines only: its new_string repeats the first 15 as context.
    const tail = block(20, 'b').split('\n').slice(15).join('\n');
    const second = b.toolCall('Edit', { file_path: FILE, old_string: tail, new_string: `${block(20, 'b').split('\n').slice(0, 15).join('\n')}\n  const extra = more(); // new` }, UPDATED);
    const { path, result, records } = await trimmed(b);
    expect(inputOf(records, first.id).new_string).toBe(block(20, 'b'));
    expect(inputOf(records, second.id).new_string).toMatch(new RegExp(`^\\[cmv: 15 lines elided; a passage of the new_string of the earlier Edit ${first.id}\\]\n  const extra = more\\(\\); // new$`));
    expect(result.removed.repeatedTextsStubbed).toBe(1);
    writeFileSync(`${path}.once.jsonl`, result.lines.map((l) => `${l}\n`).join(''));
    const twice = await trimSession(`${path}.once.jsonl`, {}, absent);
    expect(twice.lines.map(String)).toEqual(result.lines.map(String));
  });

  it('a subagent prompt quoting the plan file the model wrote points back to it', async () => {
    const b = new SessionBuilder();
    b.user('Write the plan, then hand task 1 to a subagent.');
    const plan = b.toolCall('Write', { file_path: `${CWD}/docs/plan.md`, content: [block(10, 'intro'), block(20, 'task'), block(10, 'later')].join('\n') }, 'File created successfully');
    const agent = b.toolCall('Agent', { description: 'Task 1', prompt: `You are implementing task 1.\n\n${block(20, 'task')}\n\nReport back.` }, [{ type: 'text', text: 'Task 1 is done.' }]);
    const { records } = await trimmed(b);
    expect(inputOf(records, agent.id).prompt).toMatch(
      new RegExp(`^You are implementing task 1\\.\n\n\\[cmv: 20 lines elided; a passage of the content of the earlier Write ${plan.id}\\]\n\nReport back\\.$`),
    );
    expect(inputOf(records, plan.id).content).toContain(block(20, 'task'));
  });

  it('with the files present, a subagent prompt quoting a plan file the disk holds points back to the call that wrote it', async () => {
    const b = new SessionBuilder();
    b.user('Write the plan, then hand task 1 to a subagent.');
    const content = [block(10, 'intro'), block(20, 'task'), block(10, 'later')].join('\n');
    const plan = b.toolCall('Write', { file_path: `${CWD}/docs/plan.md`, content }, 'File created successfully');
    const agent = b.toolCall('Agent', { description: 'Task 1', prompt: `You are implementing task 1.\n\n${block(20, 'task')}\n\nReport back.` }, [{ type: 'text', text: 'Task 1 is done.' }]);
    const result = await trimSession(b.write(), {}, { fileHolds: (path, text) => path === `${CWD}/docs/plan.md` && content.includes(text) });
    expect(result.verify.ok, JSON.stringify(result.verify.faults)).toBe(true);
    const records = recordsOf(result.lines);
    expect(inputOf(records, plan.id).content).toMatch(/^\[cmv: 40 lines elided; on disk\]$/);
    expect(inputOf(records, agent.id).prompt).toMatch(
      new RegExp(`^You are implementing task 1\\.\n\n\\[cmv: 20 lines elided; a passage of the content of the earlier Write ${plan.id}, which the file on disk holds\\]\n\nReport back\\.$`),
    );
  });

  it('with the files present, a prompt quoting a text the disk holds only in part keeps it', async () => {
    const b = new SessionBuilder();
    b.user('Write the plan, change it, then hand task 1 to a subagent.');
    const content = [block(10, 'intro'), block(20, 'task'), block(10, 'later')].join('\n');
    b.toolCall('Write', { file_path: `${CWD}/docs/plan.md`, content }, 'File created successfully');
    const prompt = `You are implementing task 1.\n\n${block(20, 'task')}\n\nReport back.`;
    const agent = b.toolCall('Agent', { description: 'Task 1', prompt }, [{ type: 'text', text: 'Task 1 is done.' }]);
    // The disk holds the intro and the later lines, not the task lines (a later change, say by a shell command).
    const result = await trimSession(b.write(), {}, { fileHolds: (path, text) => path === `${CWD}/docs/plan.md` && [block(10, 'intro'), block(10, 'later')].some((part) => part.includes(text)) });
    expect(inputOf(recordsOf(result.lines), agent.id).prompt).toBe(prompt);
  });

  it('never points to a text that goes, nor quotes from another file in an edit', async () => {
    const b = new SessionBuilder();
    b.user('Work.');
    const first = b.toolCall('Edit', { file_path: FILE, old_string: '// steps', new_string: block(20, 'b') }, UPDATED);
    const other = b.toolCall('Edit', { file_path: OTHER, old_string: '// x', new_string: `${block(20, 'b')}\n// copied` }, UPDATED);
    // A later Write of FILE replaces the first text whole: nothing may point to it.
    b.toolCall('Write', { file_path: FILE, content: block(20, 'w') }, UPDATED);
    const { records } = await trimmed(b);
    expect(inputOf(records, first.id).new_string).toMatch(/replaced the whole file\]$/);
    expect(inputOf(records, other.id).new_string).toBe(`${block(20, 'b')}\n// copied`);
  });
});

describe('Bash commands a later command holds', () => {
  const commit = (subject: string) => `git add -A && git commit -m "$(cat <<'EOF'\n${subject}\n\n${block(8, 'why')}\nEOF\n)"`;

  it('a commit the hook refused, run again alike, points to the later command; the last stays, and so do others', async () => {
    const b = new SessionBuilder();
    b.user('Commit it.');
    const refused = b.toolCall('Bash', { command: commit('feat: steps'), description: 'Commit' }, 'Exit code 1\nPre-commit validation failed: format', { isError: true });
    const other = b.toolCall('Bash', { command: commit('feat: other steps'), description: 'Commit' }, 'Exit code 1\nPre-commit validation failed: format', { isError: true });
    const fix = b.toolCall('Bash', { command: 'mix format', description: 'Format' }, '');
    const again = b.toolCall('Bash', { command: `cd ${CWD} && ${commit('feat: steps')}`, description: 'Commit again' }, '[main 1a2b3c4] feat: steps');
    b.assistant([{ type: 'text', text: 'Committed.' }]);
    const { path, result, records } = await trimmed(b);
    expect(inputOf(records, refused.id).command).toMatch(new RegExp(`^\\[cmv: 13 lines elided; the same text is in the command of the later Bash ${again.id}\\]$`));
    expect(inputOf(records, refused.id).description).toBe('Commit');
    expect(inputOf(records, other.id).command).toBe(commit('feat: other steps'));
    expect(inputOf(records, fix.id).command).toBe('mix format');
    expect(inputOf(records, again.id).command).toBe(`cd ${CWD} && ${commit('feat: steps')}`);
    expect(result.removed.supersededTextsStubbed).toBe(1);
    writeFileSync(`${path}.once.jsonl`, result.lines.map((l) => `${l}\n`).join(''));
    const twice = await trimSession(`${path}.once.jsonl`, {}, absent);
    expect(twice.lines.map(String)).toEqual(result.lines.map(String));
  });
});

describe('plans', () => {
  const PLAN = `# Plan\n\n${block(15, 'plan')}`;
  const approved = (plan: string) =>
    `User has approved your plan. You can now start coding. Start with updating your todo list if applicable\n\nYour plan has been saved to: /home/u/.claude/plans/p.md\n\n## Approved Plan:\n${plan}`;

  it('an approved plan its result repeats is stubbed in the input; the result stays whole', async () => {
    const b = new SessionBuilder();
    b.user('Plan it.');
    const write = b.toolCall('Write', { file_path: '/home/u/.claude/plans/p.md', content: PLAN }, 'File created successfully at: /home/u/.claude/plans/p.md');
    const exit = b.toolCall('ExitPlanMode', { plan: PLAN }, approved(PLAN));
    const { result, records } = await trimmed(b);
    expect(inputOf(records, exit.id).plan).toMatch(/^\[cmv: the plan, 17 lines \/ .*, elided; its result holds it whole\]$/);
    expect(inputOf(records, write.id).content).toMatch(new RegExp(`the same text is in the result of the later ExitPlanMode ${exit.id} \\(the approved plan\\)\\]$`));
    const resultBlock = records.flatMap((r) => r.message?.content ?? []).find((x: Json) => x?.type === 'tool_result' && x.tool_use_id === exit.id);
    expect(resultBlock.content).toBe(approved(PLAN));
    expect(result.removed.plansStubbed).toBe(1);
  });

  it('a rejected plan stays whole (the answer refers to it)', async () => {
    const b = new SessionBuilder();
    b.user('Plan it.');
    const exit = b.toolCall('ExitPlanMode', { plan: PLAN }, "The user doesn't want to proceed with this tool use. The tool use was rejected.", { isError: true });
    const { result, records } = await trimmed(b);
    expect(inputOf(records, exit.id).plan).toBe(PLAN);
    expect(result.removed.plansStubbed).toBe(0);
  });
});

it('each rule says why', () => {
  for (const rule of SUPERSEDED_INPUT_RULES) expect(rule.why.length, rule.id).toBeGreaterThan(40);
  expect(new Set(SUPERSEDED_INPUT_RULES.map((r) => r.id)).size).toBe(SUPERSEDED_INPUT_RULES.length);
});
