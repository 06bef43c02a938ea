// Each rule of the trim on a small hand-built session (Claude Code 2.1.x line shapes): what is
// stubbed and what the stub still says, what is kept whole, what is dropped and how the chain is
// repaired, and what verification catches in a hand-broken result.

import { randomUUID } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { trimSession } from '../../src/trim/trim.js';
import { AtomicWriter } from '../../src/session/write.js';
import { verifySessions } from '../../src/trim/verify.js';
import { openSession } from '../../src/session/session.js';
import { sentTexts } from '../../src/session/payload.js';
import { SessionBuilder, CWD, removeWrittenSessions, base64Data, byUuid, commandOutput, readOutput, recordsOf, resultContent, usage, type Json } from './session-builder.js';

const P = (rel: string) => `${CWD}/${rel}`;

afterAll(removeWrittenSessions);

function conversation(): SessionBuilder {
  const b = new SessionBuilder();
  b.bookkeeping('Why does the January report miss the 31st?');
  b.user('Why does the January report miss the 31st?');
  return b;
}

function textsOf(records: Json[]): string[] {
  const texts: string[] = [];
  for (const r of records) {
    const content = r.message?.content;
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) for (const block of content) if (block?.type === 'text') texts.push(block.text);
  }
  return texts;
}

describe('thinking', () => {
  it('removes a thinking-only line and re-links its child to the nearest kept ancestor', async () => {
    const b = conversation();
    const prompt = b.tip!;
    const hook = b.progress();
    const thinking = b.assistant([{ type: 'thinking', thinking: 'The bound is probably exclusive; check report.py first.', signature: 'EqQBCkYIBxgCKkA' }], { messageId: 'msg_split' });
    const answer = b.assistant([{ type: 'text', text: 'The end bound is exclusive, so the 31st falls outside the range.' }], { messageId: 'msg_split' });
    const next = b.user('Fix it please.');
    b.assistant([
      { type: 'thinking', thinking: 'Make the bound inclusive.', signature: 'sig2' },
      { type: 'text', text: 'Done: the bound is inclusive now.' },
    ]);

    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(byUuid(records, thinking.uuid)).toBeUndefined();
    expect(byUuid(records, hook.uuid)).toBeUndefined();
    expect(byUuid(records, answer.uuid)?.parentUuid).toBe(prompt);
    expect(byUuid(records, next.uuid)?.parentUuid).toBe(answer.uuid);
    expect(JSON.stringify(records)).not.toContain('"thinking"');
    expect(textsOf(records)).toContain('Done: the bound is inclusive now.');
    expect(result.removed).toMatchObject({ thinkingBlocks: 2, emptiedLines: 1, progressLines: 1 });
    expect(result.removed.relinkedParents).toBeGreaterThanOrEqual(1);
    expect(result.verify.ok).toBe(true);
    expect(result.verify.texts.assistant).toEqual({ total: 2, kept: 2 });
  });
});

describe('tool result stubs', () => {
  it('stubs the file snippet of an Edit result, keeping the confirmation', async () => {
    const b = conversation();
    const confirmation = `The file ${P('src/report.ts')} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:`;
    const edit = b.toolCall('Edit', { file_path: P('src/report.ts'), old_string: 'a < b', new_string: 'a <= b' }, `${confirmation}\n${readOutput(30)}`);
    b.assistant([{ type: 'text', text: 'Fixed.' }]);
    const result = await trimSession(b.write());
    const stub = resultContent(recordsOf(result.lines), edit.id) as string;
    // The confirmation's first sentence, without the path its call names.
    expect(stub).toBe('[cmv: Updated; its file snippet elided]');
    expect(stub).not.toContain('value20');
    expect(result.verify.ok).toBe(true);
  });

  it('stubs a Read result over the threshold with its line count, not the path its call shows', async () => {
    const b = conversation();
    const read = b.toolCall('Read', { file_path: P('src/report.ts') }, readOutput(200));
    b.assistant([{ type: 'text', text: 'The range ends before the 31st.' }]);
    const result = await trimSession(b.write());
    const stub = resultContent(recordsOf(result.lines), read.id);
    expect(typeof stub).toBe('string');
    expect(stub).toBe('[cmv: 200 lines elided]');
    expect(stub).not.toContain('report.ts');
    expect(stub).not.toContain('value150');
    expect((stub as string).length).toBeLessThan(300);
    expect(result.removed.toolResultsStubbed).toBe(1);
    expect(result.verify.ok).toBe(true);
  });

  it('keeps the exit status and first and last lines in a Bash stub, not the command its call shows', async () => {
    const b = conversation();
    const bash = b.toolCall('Bash', { command: 'npm run build', description: 'Build the project' }, `\u001b[32m${commandOutput(120)}\u001b[0m`);
    b.assistant([{ type: 'text', text: 'The build passes.' }]);
    const stub = resultContent(recordsOf((await trimSession(b.write())).lines), bash.id) as string;
    expect(stub).not.toContain('npm run build');
    expect(stub).not.toContain('\u001b');
    expect(stub).toContain('exit 0');
    expect(stub).toContain('120 lines');
    for (const kept of [1, 118, 119, 120]) expect(stub).toContain(`output line ${kept}:`);
    for (const elided of [2, 3, 60, 117]) expect(stub).not.toContain(`output line ${elided}:`);
  });

  it('keeps the match count and the first paths in Grep and Glob stubs, not the pattern their call shows', async () => {
    const b = conversation();
    const paths = Array.from({ length: 57 }, (_, i) => P(`src/modules/feature-${i + 1}/month-bounds-helper.ts`));
    const grep = b.toolCall('Grep', { pattern: 'month_bounds', path: CWD, output_mode: 'files_with_matches' }, `Found 57 files\n${paths.join('\n')}`);
    const glob = b.toolCall('Glob', { pattern: '**/*.ts' }, paths.slice(0, 40).join('\n'));
    b.assistant([{ type: 'text', text: 'month_bounds is used in 57 files.' }]);
    const records = recordsOf((await trimSession(b.write())).lines);
    const grepStub = resultContent(records, grep.id) as string;
    // Not the pattern nor the path: the call shows them.
    expect(grepStub).not.toContain('"month_bounds"');
    expect(grepStub).toContain('57 matches');
    // Paths as the working directory sees them.
    expect(grepStub).toContain('first: src/modules/feature-1/month-bounds-helper.ts, src/modules/feature-2/');
    expect(grepStub).not.toContain(CWD);
    expect(grepStub).not.toContain('feature-31/');
    const globStub = resultContent(records, glob.id) as string;
    expect(globStub).not.toContain('**/*.ts');
    expect(globStub).toContain('40 paths');
    expect(globStub).toContain('first: src/modules/feature-1/month-bounds-helper.ts,');
    expect(globStub).not.toContain('feature-31/');
  });

  it('keeps results under the threshold whole and drops their toolUseResult sidecar', async () => {
    const b = conversation();
    const small = readOutput(4);
    expect(small.length).toBeLessThan(500);
    const read = b.toolCall('Read', { file_path: P('src/small.ts') }, small);
    b.assistant([{ type: 'text', text: 'Small file.' }]);
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(resultContent(records, read.id)).toBe(small);
    expect(byUuid(records, read.result.uuid)).not.toHaveProperty('toolUseResult');
    expect(result.removed).toMatchObject({ toolResultsStubbed: 0, toolUseResultSidecars: 1 });
  });

  it('stubs a result of 300 to 500 chars by default: a listing, and command output keeping its exit status and outcome lines', async () => {
    const b = conversation();
    const listing = Array.from({ length: 12 }, (_, i) => `src/reports/monthly-${i + 1}.ts`).join('\n');
    const tests = [
      '> vitest run',
      ' ✓ test/a.test.ts (3)',
      ' ✓ test/b.test.ts (4)',
      ' ✓ test/c.test.ts (2)',
      ' ✓ test/d.test.ts (5)',
      ' ✓ test/e.test.ts (1)',
      ' ✓ test/f.test.ts (6)',
      ' Test Files  6 passed (6)',
      '      Tests  21 passed (21)',
      '   Duration  1.92s',
    ].join('\n');
    expect(listing.length).toBeGreaterThan(300);
    expect(tests.length).toBeGreaterThan(200);
    const glob = b.toolCall('Glob', { pattern: 'src/reports/*.ts' }, listing);
    const run = b.toolCall('Bash', { command: 'npx vitest run' }, `${tests}\n${tests.replace('1.92s', '2.04s')}`);
    b.assistant([{ type: 'text', text: 'All 21 tests pass.' }]);
    const records = recordsOf((await trimSession(b.write())).lines);
    expect(resultContent(records, glob.id)).toMatch(/^\[cmv: 12 paths elided; first: /);
    const stub = String(resultContent(records, run.id));
    // Lines, not bytes: no line shown was clipped.
    expect(stub).toMatch(/^\[cmv: exit 0, 20 lines\]\n/);
    expect(stub).toContain('Tests  21 passed (21)');
    expect(stub).toContain('Duration  2.04s');
  });

  it('gives a Bash stub its size in bytes only when a line it shows was clipped, and no hint to search again', async () => {
    const b = conversation();
    const json = `{"rows":[${Array.from({ length: 40 }, (_, i) => `{"id":${i},"name":"row ${i}"}`).join(',')}]}`;
    const dump = b.toolCall('Bash', { command: 'curl -s localhost:3000/rows' }, json);
    const grep = b.toolCall('Grep', { pattern: 'value', path: CWD }, `Found 30 files\n${Array.from({ length: 30 }, (_, i) => P(`src/file${i}.ts`)).join('\n')}`);
    b.assistant([{ type: 'text', text: 'Forty rows.' }]);
    const records = recordsOf((await trimSession(b.write())).lines);
    const stub = String(resultContent(records, dump.id));
    // One line of 1 KB, shown clipped: the bytes say how much the line held.
    expect(stub).toMatch(/^\[cmv: exit 0, 1 lines \/ [\d.]+ (?:chars|KB)\]\n/);
    expect(resultContent(records, grep.id)).toMatch(/^\[cmv: 30 matches elided; first: src\/file0\.ts, src\/file1\.ts, src\/file2\.ts\]$/);
  });

  it('keeps a short command output whole when its stub would say as much', async () => {
    const b = conversation();
    const timing = Array.from({ length: 5 }, (_, i) => `./report help > /dev/null 2>&1  0.01s user 0.02s system 25% cpu 0.13${i} total`).join('\n');
    expect(timing.length).toBeGreaterThan(300);
    const run = b.toolCall('Bash', { command: 'for i in 1 2 3 4 5; do time ./report help > /dev/null 2>&1; done' }, timing);
    b.assistant([{ type: 'text', text: 'About 0.13 s a run.' }]);
    const result = await trimSession(b.write());
    expect(resultContent(recordsOf(result.lines), run.id)).toBe(timing);
  });

  it('honours a custom threshold', async () => {
    const b = conversation();
    const read = b.toolCall('Read', { file_path: P('src/small.ts') }, readOutput(8));
    b.assistant([{ type: 'text', text: 'Small file.' }]);
    const stub = resultContent(recordsOf((await trimSession(b.write(), { threshold: 100 })).lines), read.id);
    expect(stub).toBe('[cmv: 8 lines elided]');
  });

  it('keeps error results whole, and clips long ones to their head and tail', async () => {
    const b = conversation();
    const shortError = `Exit code 1\n${commandOutput(30)}`;
    expect(shortError.length).toBeGreaterThan(1000);
    expect(shortError.length).toBeLessThan(4000);
    const failing = b.toolCall('Bash', { command: 'npm test' }, shortError, { isError: true });
    const longError = `Exit code 2\n${commandOutput(300)}\nFATAL: out of memory`;
    const crashing = b.toolCall('Bash', { command: 'npm run e2e' }, longError, { isError: true });
    b.assistant([{ type: 'text', text: 'Tests fail; e2e runs out of memory.' }]);
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(resultContent(records, failing.id)).toBe(shortError);
    const clipped = resultContent(records, crashing.id) as string;
    expect(clipped.startsWith('Exit code 2\noutput line 1:')).toBe(true);
    expect(clipped.endsWith('FATAL: out of memory')).toBe(true);
    expect(clipped).toContain('of error output elided');
    expect(clipped).not.toContain('output line 150:');
    expect(clipped.length).toBeLessThanOrEqual(4000);
    expect(result.removed).toMatchObject({ errorsClipped: 1, toolResultsStubbed: 0 });
  });

  it('keeps Task and Agent results (subagent reports) whole', async () => {
    const b = conversation();
    const report = `## Environment variables\n\n${Array.from({ length: 60 }, (_, i) => `| VAR_${i} | src/config.js:${i} | default ${i} | controls feature ${i} |`).join('\n')}`;
    const agentContent = [
      { type: 'text', text: report },
      { type: 'text', text: "agentId: a1b2c3d (use SendMessage with to: 'a1b2c3d' to continue this agent)" },
    ];
    const agent = b.toolCall('Agent', { description: 'Audit env vars', subagent_type: 'general-purpose', prompt: 'List every env var.' }, agentContent, {
      toolUseResult: { status: 'completed', agentId: 'a1b2c3d', content: agentContent, totalTokens: 18000 },
    });
    const task = b.toolCall('Task', { description: 'Check tests', subagent_type: 'Explore', prompt: 'Which tests cover env vars?' }, report);
    b.assistant([{ type: 'text', text: 'The audit found 60 variables.' }]);
    const records = recordsOf((await trimSession(b.write())).lines);
    expect(resultContent(records, agent.id)).toEqual(agentContent);
    expect(resultContent(records, task.id)).toBe(report);
  });
});

describe('images', () => {
  const pasted = () => {
    const b = conversation();
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64Data(40_000) } };
    const line = b.user([{ type: 'text', text: 'What does this chart show?' }, image]);
    b.assistant([{ type: 'text', text: 'January spending by category.' }]);
    return { b, image, line };
  };

  it('keeps images the user pasted', async () => {
    const { b, image, line } = pasted();
    const result = await trimSession(b.write());
    expect(byUuid(recordsOf(result.lines), line.uuid)?.message.content).toEqual([{ type: 'text', text: 'What does this chart show?' }, image]);
    expect(result.removed.userImages).toBe(0);
  });

  it('stubs images the user pasted with stripUserImages', async () => {
    const { b, line } = pasted();
    const result = await trimSession(b.write(), { stripUserImages: true });
    const content = byUuid(recordsOf(result.lines), line.uuid)?.message.content as Json[];
    expect(content.some((c) => c.type === 'image')).toBe(false);
    expect(content[0]).toEqual({ type: 'text', text: 'What does this chart show?' });
    expect(content[1].text).toMatch(/^\[cmv: PNG image, .* elided\]$/);
    expect(result.removed.userImages).toBe(1);
    expect(result.verify.ok).toBe(true);
  });

  it('stubs images inside tool results, naming the file', async () => {
    const b = conversation();
    const read = b.toolCall('Read', { file_path: P('docs/chart.png') }, [{ type: 'image', source: { type: 'base64', data: base64Data(40_000), media_type: 'image/png' } }], {
      toolUseResult: { type: 'image', file: { base64: base64Data(40_000), type: 'image/png', originalSize: 30_000 } },
    });
    b.assistant([{ type: 'text', text: 'A bar chart.' }]);
    const result = await trimSession(b.write());
    const content = resultContent(recordsOf(result.lines), read.id);
    expect(JSON.stringify(content)).not.toContain('"image"');
    expect(JSON.stringify(content)).toContain(`PNG image from ${P('docs/chart.png')}`);
    expect(result.removed.toolResultImages).toBe(1);
    expect(result.verify.ok).toBe(true);
  });

  // Claude Code 2.1.x attaches what Read gets from a PDF as a separate isMeta user line after the
  // tool_result ("PDF file read: <path>"): the whole file as a document block, or its pages as
  // JPEG images. The tool can give them back, so they are not the user's own pastes.
  const pdfRead = (attached: Json[]) => {
    const b = conversation();
    const read = b.toolCall('Read', { file_path: P('docs/spec.pdf') }, `PDF file read: ${P('docs/spec.pdf')} (1.2MB)`, {
      toolUseResult: { type: 'pdf', file: { filePath: P('docs/spec.pdf'), base64: '', originalSize: 1_200_000 } },
    });
    const meta = b.user(attached, { isMeta: true });
    b.assistant([{ type: 'text', text: 'The spec has three sections.' }]);
    return { b, read, meta };
  };

  it('stubs a PDF document the Read tool attached in an isMeta user line', async () => {
    const { b, meta } = pdfRead([{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: base64Data(60_000) } }]);
    const result = await trimSession(b.write());
    const content = byUuid(recordsOf(result.lines), meta.uuid)?.message.content;
    expect(JSON.stringify(content).length, 'the PDF is still in the trimmed log').toBeLessThan(1000);
    expect(JSON.stringify(content)).toContain('[cmv: ');
    expect(result.verify.ok).toBe(true);
  });

  it('stubs PDF page images the Read tool attached in an isMeta user line, without stripUserImages', async () => {
    const page = () => ({ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: base64Data(30_000) } });
    const { b, meta } = pdfRead([page(), page()]);
    const result = await trimSession(b.write());
    const content = byUuid(recordsOf(result.lines), meta.uuid)?.message.content as Json[];
    expect(
      content.filter((c) => c.type === 'image'),
      'page images kept as if the user had pasted them',
    ).toEqual([]);
    expect(result.verify.ok).toBe(true);
  });
});

describe('tool inputs', () => {
  const written = readOutput(80, (i) => `export function step${i}(input: number): number { return input * ${i} + ${i * 7}; }`).replace(/^\d+\t/gm, '');
  const build = () => {
    const b = conversation();
    const write = b.toolCall('Write', { file_path: P('src/steps.ts'), content: written }, `File created successfully at: ${P('src/steps.ts')}`, {
      toolUseResult: { type: 'create', filePath: P('src/steps.ts'), content: written, structuredPatch: [] },
    });
    b.assistant([{ type: 'text', text: 'Wrote the steps.' }]);
    return { b, write };
  };
  const inputOf = (records: Json[], id: string): Json => {
    for (const r of records) for (const block of r.message?.content ?? []) if (block?.type === 'tool_use' && block.id === id) return block.input;
    throw new Error(`no tool_use ${id}`);
  };

  it('stubs a large Write input when the file on disk holds it, and says so', async () => {
    const { b, write } = build();
    const asked: Array<[string, string]> = [];
    const result = await trimSession(b.write(), {}, { fileHolds: (path, text) => (asked.push([path, text]), true) });
    expect(asked).toEqual([[P('src/steps.ts'), written]]);
    const input = inputOf(recordsOf(result.lines), write.id);
    expect(input.file_path).toBe(P('src/steps.ts'));
    // The call's own file_path names the file; the stub says the file holds the text.
    expect(input.content).toMatch(/^\[cmv: 80 lines elided; on disk\]$/);
    expect(result.removed.toolInputsStubbed).toBe(1);
    expect(result.verify.ok).toBe(true);
  });

  it('keeps a large Write input whole when the file does not hold it', async () => {
    const { b, write } = build();
    const result = await trimSession(b.write(), {}, { fileHolds: () => false });
    expect(inputOf(recordsOf(result.lines), write.id).content).toBe(written);
    expect(result.removed.toolInputsStubbed).toBe(0);
  });

  it('keeps a large Write input whole when no fileHolds is given', async () => {
    const { b, write } = build();
    const result = await trimSession(b.write());
    expect(inputOf(recordsOf(result.lines), write.id).content).toBe(written);
  });

  const editCall = (oldText: string, newText: string) => {
    const b = conversation();
    const edit = b.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: oldText, new_string: newText }, 'The file has been updated successfully.');
    b.assistant([{ type: 'text', text: 'Edited.' }]);
    return { path: b.write(), id: edit.id };
  };
  const block = (n: number, word: string) => Array.from({ length: n }, (_, i) => `  const ${word}${i} = step(${i}); // ${word}`).join('\n');

  it('stubs both strings of an applied edit whose strings together pass the threshold, asking about the new text', async () => {
    const [oldText, newText] = [block(8, 'before'), block(9, 'after')];
    expect(oldText.length).toBeLessThan(500);
    expect(oldText.length + newText.length).toBeGreaterThan(500);
    const { path, id } = editCall(oldText, newText);
    const asked: string[] = [];
    const result = await trimSession(path, {}, { fileHolds: (_p, text) => (asked.push(text), true) });
    expect(asked).toEqual([newText]);
    const input = inputOf(recordsOf(result.lines), id);
    // The new_string's stub beside it says the file holds the new text: the old_string's need not.
    expect(input.old_string).toMatch(/^\[cmv: 8 lines replaced\]$/);
    expect(input.new_string).toMatch(/^\[cmv: 9 lines elided; on disk\]$/);
    expect(result.removed.toolInputsStubbed).toBe(1);
    expect(result.verify.ok).toBe(true);
  });

  it('keeps an edit whole when the file does not hold its new text, when it is small, or when it deletes', async () => {
    const big = editCall(block(8, 'before'), block(9, 'after'));
    expect(inputOf(recordsOf((await trimSession(big.path, {}, { fileHolds: () => false })).lines), big.id).new_string).toBe(block(9, 'after'));
    const small = editCall('a < b', 'a <= b');
    expect(inputOf(recordsOf((await trimSession(small.path, {}, { fileHolds: () => true })).lines), small.id).old_string).toBe('a < b');
    const deletion = editCall(block(20, 'gone'), '');
    const kept = inputOf(recordsOf((await trimSession(deletion.path, {}, { fileHolds: () => true })).lines), deletion.id);
    expect(kept.old_string).toBe(block(20, 'gone'));
  });
});

describe('written texts the file holds in part', () => {
  const inputOf = (records: Json[], id: string): Json => {
    for (const r of records) for (const block of r.message?.content ?? []) if (block?.type === 'tool_use' && block.id === id) return block.input;
    throw new Error(`no tool_use ${id}`);
  };
  const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `  const ${word}${i} = step(${i}); // ${word}`);
  const done = 'The file has been updated successfully.';
  // The edit wrote 30 lines; a later change (not in this log) rewrote line 12, so the file holds two runs of it.
  const written = lines(30, 'fresh');
  const onDisk = ['// header', ...written.slice(0, 12), '  const fresh12 = step(12) * 2; // changed since', ...written.slice(13), '// footer'].join('\n');
  const disk = (_path: string, text: string) => onDisk.includes(text);

  it('stubs the runs of lines the file still holds and keeps the line it no longer holds', async () => {
    const b = conversation();
    const edit = b.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: lines(20, 'stale').join('\n'), new_string: written.join('\n') }, done);
    b.assistant([{ type: 'text', text: 'Rewrote the steps.' }]);
    const result = await trimSession(b.write(), {}, { fileHolds: disk });
    const input = inputOf(recordsOf(result.lines), edit.id);
    expect(input.new_string.split('\n')).toEqual([expect.stringMatching(/^\[cmv: 12 lines elided; on disk\]$/), written[12], expect.stringMatching(/^\[cmv: 17 lines elided; on disk\]$/)]);
    // The file holds runs of the new text, so the edit was applied: the text it replaced is gone
    // from the file as after any applied edit, and is stubbed as replaced, saying the file holds the new text in part.
    expect(input.old_string).toMatch(/^\[cmv: 20 lines replaced; the file on disk holds the new text in part\]$/);
    expect(result.removed.heldRunsStubbed).toBe(1);
    expect(result.removed.toolInputsStubbed).toBe(1);
    expect(result.verify.ok).toBe(true);

    // A trimmed log trimmed again does not change.
    const path = `${b.write()}.once.jsonl`;
    writeFileSync(path, result.lines.map((l) => `${l.toString()}\n`).join(''));
    const twice = await trimSession(path, {}, { fileHolds: disk });
    expect(twice.lines.map((l) => l.toString())).toEqual(result.lines.map((l) => l.toString()));
  });

  it('does the same for Write content, and keeps runs too short to be worth a stub', async () => {
    const b = conversation();
    const write = b.toolCall('Write', { file_path: P('src/steps.ts'), content: written.join('\n') }, `File created successfully at: ${P('src/steps.ts')}`);
    const result = await trimSession(b.write(), {}, { fileHolds: disk });
    expect(inputOf(recordsOf(result.lines), write.id).content).toMatch(/^\[cmv: 12 lines .*\]\n {2}const fresh12 = step\(12\); \/\/ fresh\n\[cmv: 17 lines .*\]$/);

    // Every other line changed since: no run of 200 chars is held, so the content stays whole.
    const scattered = written.map((line, i) => (i % 2 === 0 ? line : `${line} // edited`)).join('\n');
    const short = conversation();
    const kept = short.toolCall('Write', { file_path: P('src/steps.ts'), content: written.join('\n') }, 'File created successfully.');
    const shortResult = await trimSession(short.write(), {}, { fileHolds: (_p, text) => scattered.includes(text) });
    expect(inputOf(recordsOf(shortResult.lines), kept.id).content).toBe(written.join('\n'));
    expect(shortResult.removed.heldRunsStubbed).toBe(0);
  });

  it('asks the file only about runs of lines it has, when its lines are known', async () => {
    const b = conversation();
    const write = b.toolCall('Write', { file_path: P('src/steps.ts'), content: written.join('\n') }, 'File created successfully.');
    const path = b.write();
    const asked: string[] = [];
    const fileLines = () => new Set(onDisk.split('\n'));
    const result = await trimSession(path, {}, { fileHolds: (p, text) => (asked.push(text), disk(p, text)), fileLines });
    // The same stubs as asking about every window, with no ask about a window holding the changed line.
    const unaided = await trimSession(path, {}, { fileHolds: disk });
    expect(inputOf(recordsOf(result.lines), write.id).content).toBe(inputOf(recordsOf(unaided.lines), write.id).content);
    expect(result.removed.heldRunsStubbed).toBe(1);
    expect(asked.filter((text) => text.includes(written[12]) && text !== written.join('\n'))).toEqual([]);
  });
});

describe('edit texts an earlier call wrote', () => {
  const inputOf = (records: Json[], id: string): Json => {
    for (const r of records) for (const block of r.message?.content ?? []) if (block?.type === 'tool_use' && block.id === id) return block.input;
    throw new Error(`no tool_use ${id}`);
  };
  const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `  const ${word}${i} = step(${i}); // ${word}`).join('\n');
  const done = 'The file has been updated successfully.';

  it("points a later edit's old_string back to the earlier edit whose kept new_string it repeats", async () => {
    const b = conversation();
    const [first, second, third] = [lines(20, 'first'), lines(20, 'second'), lines(20, 'third')];
    const earlier = b.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: first, new_string: second }, done);
    // The later edit fails, so its old_string is not stubbed as the text an applied edit replaced.
    const later = b.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: second, new_string: third }, 'File has been modified since read.', { isError: true });
    b.assistant([{ type: 'text', text: 'Rewrote the steps twice.' }]);
    // The file holds neither new text (changed since): nothing is stubbed for the disk's sake.
    const result = await trimSession(b.write(), {}, { fileHolds: () => false });
    const records = recordsOf(result.lines);
    // The earlier edit applied (its result says so): the text it replaced goes, its new text stays.
    expect(inputOf(records, earlier.id).old_string).toMatch(/^\[cmv: 20 lines replaced\]$/);
    expect(inputOf(records, earlier.id).new_string).toBe(second);
    const repeated = inputOf(records, later.id);
    expect(repeated.old_string).toMatch(new RegExp(`^\\[cmv: 20 lines elided; the same text as the new_string of the earlier Edit ${earlier.id}\\]$`));
    expect(repeated.new_string).toBe(third);
    expect(result.removed.repeatedTextsStubbed).toBe(1);
    expect(result.verify.ok).toBe(true);
  });

  it('once a later applied edit replaced the whole earlier text, neither copy stays and no pointer is left dangling', async () => {
    const b = conversation();
    const [first, second, third] = [lines(20, 'first'), lines(20, 'second'), lines(20, 'third')];
    const earlier = b.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: first, new_string: second }, done);
    const later = b.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: second, new_string: third }, done);
    const result = await trimSession(b.write(), {}, { fileHolds: () => false });
    const records = recordsOf(result.lines);
    expect(inputOf(records, earlier.id).new_string).toMatch(new RegExp(`; the later Edit ${later.id} replaced all of it\\]$`));
    expect(inputOf(records, later.id).old_string).toMatch(/^\[cmv: 20 lines replaced\]$/);
    expect(inputOf(records, later.id).new_string).toBe(third);
    expect(result.removed.repeatedTextsStubbed).toBe(0);
    expect(result.removed.supersededTextsStubbed).toBe(1);
    expect(result.verify.ok).toBe(true);
  });

  it('says when the old_string is a passage of what an earlier Write wrote; once the edit applied, the passage goes from the Write', async () => {
    for (const failed of [true, false]) {
      const b = conversation();
      const content = [lines(10, 'head'), lines(20, 'middle'), lines(10, 'tail')].join('\n');
      const write = b.toolCall('Write', { file_path: P('src/steps.ts'), content }, `File created successfully at: ${P('src/steps.ts')}`);
      const edit = b.toolCall(
        'Edit',
        { file_path: P('src/steps.ts'), old_string: lines(20, 'middle'), new_string: 'const middle = steps();' },
        failed ? 'String to replace not found in file.' : done,
        { isError: failed },
      );
      const result = await trimSession(b.write(), {}, { fileHolds: () => false });
      const records = recordsOf(result.lines);
      expect(result.verify.ok).toBe(true);
      if (failed) {
        // The failed edit's old_string points back to the Write, which keeps it.
        expect(inputOf(records, write.id).content).toBe(content);
        expect(inputOf(records, edit.id).old_string).toMatch(new RegExp(`; a passage of the content of the earlier Write ${write.id}\\]$`));
      } else {
        expect(inputOf(records, write.id).content).toBe(`${lines(10, 'head')}\n[cmv: 20 lines elided; the later Edit ${edit.id} replaced them]\n${lines(10, 'tail')}`);
        expect(inputOf(records, edit.id).old_string).toMatch(/^\[cmv: 20 lines replaced\]$/);
      }
    }
  });

  it('keeps the old_string whole when the text it repeats is in another file, on another branch, stubbed, or small', async () => {
    const [first, second] = [lines(20, 'first'), lines(20, 'second')];
    // Another file.
    const other = conversation();
    other.toolCall('Edit', { file_path: P('src/other.ts'), old_string: first, new_string: second }, done);
    // (The later edits fail, so their old_string is not stubbed as the text an applied edit replaced.)
    const otherLater = other.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: second, new_string: first }, 'String to replace not found in file.', { isError: true });
    expect(inputOf(recordsOf((await trimSession(other.write(), {}, { fileHolds: () => false })).lines), otherLater.id).old_string).toBe(second);

    // Another branch: the earlier edit is not sent with the later one.
    const branched = conversation();
    const fork = branched.tip;
    branched.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: first, new_string: second }, done);
    branched.user('Start over from before that edit.', {}, fork);
    const onBranch = branched.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: second, new_string: first }, 'String to replace not found in file.', { isError: true });
    const branchResult = await trimSession(branched.write(), {}, { fileHolds: () => false });
    expect(inputOf(recordsOf(branchResult.lines), onBranch.id).old_string).toBe(second);
    expect(branchResult.removed.repeatedTextsStubbed).toBe(0);

    // The earlier text was itself stubbed (the file holds it): nothing verbatim to point to.
    const stubbed = conversation();
    stubbed.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: first, new_string: second }, done);
    const afterStub = stubbed.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: second, new_string: '' }, done);
    const stubResult = await trimSession(stubbed.write(), {}, { fileHolds: (_p, text) => text === second });
    expect(inputOf(recordsOf(stubResult.lines), afterStub.id).old_string).toBe(second);

    // Small: under the threshold, an old_string stays whole.
    const small = conversation();
    small.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: 'a', new_string: lines(3, 'x') }, done);
    const smallLater = small.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: lines(3, 'x'), new_string: 'b' }, done);
    expect(inputOf(recordsOf((await trimSession(small.write(), {}, { fileHolds: () => false })).lines), smallLater.id).old_string).toBe(lines(3, 'x'));
  });

  it('changes nothing more when the trimmed log is trimmed again', async () => {
    const b = conversation();
    const [first, second, third] = [lines(20, 'first'), lines(20, 'second'), lines(20, 'third')];
    b.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: first, new_string: second }, done);
    b.toolCall('Edit', { file_path: P('src/steps.ts'), old_string: second, new_string: third }, done);
    const once = await trimSession(b.write(), {}, { fileHolds: () => false });
    const path = `${b.write()}.once.jsonl`;
    writeFileSync(path, once.lines!.map((l) => `${l.toString()}\n`).join(''));
    const twice = await trimSession(path, {}, { fileHolds: () => false });
    expect(twice.lines!.map((l) => l.toString())).toEqual(once.lines!.map((l) => l.toString()));
    expect(twice.removed.repeatedTextsStubbed).toBe(0);
  });
});

describe('lines the API never sees', () => {
  it('keeps everything when a summary line sits mid-file and at the end', async () => {
    const b = conversation();
    const first = b.tip!;
    b.assistant([{ type: 'text', text: 'The end bound is exclusive.' }]);
    b.raw({ type: 'summary', summary: 'Month-end report bug', leafUuid: first });
    b.user('Fix it please.');
    b.assistant([{ type: 'text', text: 'Fixed.' }]);
    b.raw({ type: 'summary', summary: 'Fixing the month-end report bug', leafUuid: b.tip });
    const path = b.write();
    const original = await openSession(path);
    const result = await trimSession(path);
    expect(sentTexts(result.trimmed).map((t) => t.text)).toEqual(sentTexts(original).map((t) => t.text));
    expect(sentTexts(result.trimmed).map((t) => t.text)).toEqual(['Why does the January report miss the 31st?', 'The end bound is exclusive.', 'Fix it please.', 'Fixed.']);
    expect(recordsOf(result.lines).filter((r) => r.type === 'summary')).toHaveLength(2);
    expect(result.removed.linesBeforeBoundary).toBe(0);
    expect(result.verify.ok).toBe(true);
  });

  it('drops bookkeeping lines: queue operations, file-history snapshots, progress, turn durations', async () => {
    const b = conversation();
    b.progress();
    b.assistant([{ type: 'text', text: 'Looking.' }]);
    const turn = b.raw({
      parentUuid: b.tip,
      type: 'system',
      subtype: 'turn_duration',
      durationMs: 5123,
      isMeta: false,
      uuid: randomUUID(),
      timestamp: '2026-03-01T10:05:00.000Z',
      sessionId: b.sessionId,
    });
    const result = await trimSession(b.write());
    const types = recordsOf(result.lines).map((r) => r.type);
    expect(types).toEqual(['user', 'assistant']);
    expect(turn.subtype).toBe('turn_duration');
    expect(result.removed).toMatchObject({ queueOperations: 2, fileHistorySnapshots: 1, progressLines: 1, systemNoticeLines: 1 });
  });

  /** The same log trimmed in memory and streamed to a file, and whether the file holds the in-memory lines byte for byte. */
  const trimBothWays = async (path: string) => {
    const inMemory = await trimSession(path);
    const writer = await AtomicWriter.open(`${path}.streamed`);
    const streamed = await trimSession(path, {}, { writer });
    await writer.commit();
    const sameBytes = readFileSync(writer.path).equals(Buffer.concat(inMemory.lines.flatMap((l) => [l, Buffer.from('\n')])));
    return { inMemory, streamed, sameBytes };
  };

  const compacted = () => {
    const b = conversation();
    const before = b.assistant([{ type: 'text', text: 'Before the compaction.' }]);
    const read = b.toolCall('Read', { file_path: P('src/report.ts') }, readOutput(200));
    const title = b.raw({ type: 'custom-title', customTitle: 'month-end bug', sessionId: b.sessionId });
    const { boundary, summary } = b.compact('1. The user asked why the January report misses the 31st.');
    const after = b.user('Now fix it.');
    b.assistant([{ type: 'text', text: 'Fixed after the compaction.' }]);
    return { b, before, read, title, boundary, summary, after };
  };

  it('drops the lines before the last compact_boundary, keeping metadata lines', async () => {
    const { b, before, read, boundary, summary, after } = compacted();
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    expect(byUuid(records, before.uuid)).toBeUndefined();
    expect(byUuid(records, read.result.uuid)).toBeUndefined();
    expect(records.some((r) => r.message?.content === 'Why does the January report miss the 31st?')).toBe(false);
    for (const kept of [boundary, summary, after]) expect(byUuid(records, kept.uuid)).toBeDefined();
    expect(records.filter((r) => r.type === 'custom-title')).toHaveLength(1);
    // The prompt, the answer, the Read pair and the prompt's 3 bookkeeping lines, counted once, under this rule.
    expect(result.removed).toMatchObject({ linesBeforeBoundary: 7, queueOperations: 0, fileHistorySnapshots: 0 });
    expect(result.verify.ok).toBe(true);
  });

  it('treats a 1.0.x compaction (a summary rooting a new chain, no boundary line) as the boundary', async () => {
    const b = conversation();
    const before = b.assistant([{ type: 'text', text: 'Before the compaction.' }]);
    const summary = b.user('This session is being continued from a previous conversation that ran out of context.', { isCompactSummary: true }, null);
    const after = b.user('Now fix it.');
    b.assistant([{ type: 'text', text: 'Fixed after the compaction.' }]);
    const path = b.write();
    const { inMemory, sameBytes } = await trimBothWays(path);
    const records = recordsOf(inMemory.lines);
    expect(byUuid(records, before.uuid)).toBeUndefined();
    for (const kept of [summary, after]) expect(byUuid(records, kept.uuid)).toBeDefined();
    expect(inMemory.removed.linesBeforeBoundary).toBeGreaterThan(0);
    expect(inMemory.verify.ok).toBe(true);
    expect(sameBytes).toBe(true);
    // With --keep-history nothing before it goes.
    expect(recordsOf((await trimSession(path, { keepHistory: true })).lines).some((r) => r.uuid === before.uuid)).toBe(true);
  });

  it('finds the last boundary past a later line that only nests one, and streams what it keeps in memory', async () => {
    const { b, boundary, summary, after } = compacted();
    // A subagent's progress line can carry whole records: a boundary nested there is not the log's.
    b.raw({
      parentUuid: after.uuid,
      isSidechain: false,
      type: 'progress',
      data: { type: 'agent_progress', message: { type: 'system', subtype: 'compact_boundary', uuid: 'nested' } },
      uuid: 'progress-1',
      timestamp: new Date().toISOString(),
      sessionId: b.sessionId,
    });
    const path = b.write();
    const { inMemory, streamed, sameBytes } = await trimBothWays(path);
    expect(sameBytes).toBe(true);
    const records = recordsOf(inMemory.lines);
    for (const kept of [boundary, summary, after]) expect(byUuid(records, kept.uuid)).toBeDefined();
    expect(inMemory.removed).toMatchObject({ linesBeforeBoundary: 7, progressLines: 1 });
    expect(streamed.removed).toEqual(inMemory.removed);
    expect(streamed.verify.ok && inMemory.verify.ok).toBe(true);
  });

  it('reads every line in full when the resumed path starts before the last boundary, and keeps what it sends', async () => {
    const { b, before } = compacted();
    // The latest line answers a message from before the compaction: Claude Code resumes that branch.
    b.raw({
      parentUuid: before.uuid,
      isSidechain: false,
      userType: 'external',
      cwd: CWD,
      sessionId: b.sessionId,
      version: '2.1.100',
      type: 'user',
      message: { role: 'user', content: 'Back to the old branch.' },
      uuid: 'late-branch',
      timestamp: '2099-01-01T00:00:00.000Z',
    });
    const path = b.write();
    const { inMemory, streamed, sameBytes } = await trimBothWays(path);
    // The history is chosen from the resumed leaf (issue 16): that branch starts before every
    // boundary, so nothing before them is dropped and what it sends is all kept.
    expect(inMemory.verify.faults).toEqual([]);
    expect(inMemory.removed.linesBeforeBoundary).toBe(0);
    expect(byUuid(recordsOf(inMemory.lines), before.uuid)).toBeDefined();
    expect(streamed.verify).toEqual(inMemory.verify);
    expect(sameBytes).toBe(true);
    expect(streamed.index.conversation.leaf?.uuid).toBe('late-branch');
    // Read in full, the dropped lines carry their content shape (a chain-only index would have none).
    expect(streamed.index.conversation.entries.find((e) => e.uuid === before.uuid)?.blocks.length).toBeGreaterThan(0);
  });

  it('streams without indexing the lines before the boundary, and reads them in full when one of them is the latest line', async () => {
    const { b, before } = compacted();
    const plain = await trimBothWays(b.write());
    // The dropped lines are counted, not indexed: the index holds what Claude Code resumes.
    expect(plain.streamed.removed).toEqual(plain.inMemory.removed);
    expect(plain.streamed.input.lines).toBe(plain.inMemory.input.lines);
    expect(plain.streamed.index.conversation.entries.some((e) => e.uuid === before.uuid)).toBe(false);
    expect(plain.inMemory.index.conversation.entries.some((e) => e.uuid === before.uuid)).toBe(true);

    // A line before the boundary stamped later than everything after it is the leaf Claude Code
    // resumes (its chain is not the compacted one): nothing may be dropped unread then.
    const late = new SessionBuilder();
    late.user('Why does the January report miss the 31st?');
    const old = late.assistant([{ type: 'text', text: 'The end bound is exclusive.' }]);
    old.timestamp = '2099-01-01T00:00:00.000Z';
    late.compact('1. The user asked why the January report misses the 31st.');
    late.user('Now fix it.');
    late.assistant([{ type: 'text', text: 'Fixed after the compaction.' }]);
    const path = late.write();
    const { inMemory, streamed } = await trimBothWays(path);
    expect(inMemory.index.conversation.leaf?.uuid).toBe(old.uuid);
    expect(streamed.index.conversation.leaf?.uuid).toBe(old.uuid);
    expect(streamed.removed).toEqual(inMemory.removed);
    // That leaf's chain is not the compacted one: nothing before the boundary is dropped, and both verify.
    expect(inMemory.verify.faults).toEqual([]);
    expect(inMemory.removed.linesBeforeBoundary).toBe(0);
    expect(streamed.verify).toEqual(inMemory.verify);
  });

  it('drops the history unread past a parent missing from the whole file, unless Claude Code could fall back to a dropped line by time', async () => {
    const withMissingParent = async (gapMs: number) => {
      const { b, before, read } = compacted();
      // A hook's progress line answering a message the log never wrote, and a prompt chained to it.
      const hook = b.raw({
        parentUuid: 'never-written',
        isSidechain: false,
        type: 'progress',
        data: { type: 'hook_progress' },
        uuid: randomUUID(),
        timestamp: new Date().toISOString(),
        sessionId: b.sessionId,
      });
      b.tip = hook.uuid as string;
      const prompt = b.user('Carry on.');
      prompt.timestamp = new Date(Date.parse(read.result.timestamp as string) + gapMs).toISOString();
      // The answer is the latest line: the resumed path runs through the prompt.
      const answer = b.assistant([{ type: 'text', text: 'Carrying on.' }]);
      answer.timestamp = new Date(Date.parse(prompt.timestamp as string) + 3_600_000).toISOString();
      const path = b.write();
      const { inMemory, streamed, sameBytes } = await trimBothWays(path);
      expect(sameBytes).toBe(true);
      expect(streamed.removed).toEqual(inMemory.removed);
      expect(streamed.index.conversation.activePath.map((e) => e.uuid).slice(-2)).toEqual([prompt.uuid, answer.uuid]);
      return streamed.index.conversation.entries.some((e) => e.uuid === before.uuid);
    };
    // An hour after the last dropped line: Claude Code's 5 s fallback cannot reach it.
    expect(await withMissingParent(3_600_000)).toBe(false);
    // 2 s after it: the fallback could, so everything is read.
    expect(await withMissingParent(2_000)).toBe(true);
  });

  it('reads every line in full when a kept line off the resumed path has a dropped parent, so it is re-linked as in memory', async () => {
    const { b, before } = compacted();
    // A subagent's line written after the compaction, answering a message from before it.
    b.raw({
      parentUuid: before.uuid,
      isSidechain: true,
      agentId: 'a1b2c3',
      type: 'user',
      message: { role: 'user', content: 'Look at the old report.' },
      uuid: randomUUID(),
      timestamp: '2026-03-01T09:00:00.000Z',
      sessionId: b.sessionId,
    });
    const path = b.write();
    const { inMemory, streamed, sameBytes } = await trimBothWays(path);
    expect(streamed.verify.ok && inMemory.verify.ok).toBe(true);
    expect(sameBytes).toBe(true);
    expect(streamed.removed).toEqual(inMemory.removed);
  });

  it('streams a log of many read chunks to the same bytes as an in-memory trim', async () => {
    // Over 8 MB, so the reader's two buffers are each reused for later chunks.
    const { b } = compacted();
    for (let i = 0; i < 14; i++) {
      b.user(`Step ${i}: read the next part.`);
      b.toolCall('Read', { file_path: P(`src/part${i}.ts`) }, readOutput(9000));
      b.assistant([{ type: 'text', text: `Part ${i} read.` }]);
    }
    const path = b.write();
    expect(statSync(path).size).toBeGreaterThan(8 * 1024 * 1024);
    const { inMemory, streamed, sameBytes } = await trimBothWays(path);
    expect(sameBytes).toBe(true);
    expect(streamed.verify.ok && inMemory.verify.ok).toBe(true);
  });

  it('keeps the lines before the last compact_boundary with keepHistory, still stripped', async () => {
    const { b, before, read } = compacted();
    const result = await trimSession(b.write(), { keepHistory: true });
    const records = recordsOf(result.lines);
    expect(byUuid(records, before.uuid)?.message.content).toEqual([{ type: 'text', text: 'Before the compaction.' }]);
    expect(resultContent(records, read.id)).toMatch(/^\[cmv: \d+ lines elided\]$/);
    expect(result.removed.linesBeforeBoundary).toBe(0);
    expect(result.verify.ok).toBe(true);
  });
});

describe('session ids', () => {
  const build = () => {
    const b = conversation();
    b.toolCall('Read', { file_path: P('src/report.ts') }, readOutput(200));
    b.assistant([{ type: 'text', text: 'Found it.' }]);
    return b;
  };

  it('rewrites sessionId on every line when a new id is given', async () => {
    const b = build();
    const id = randomUUID();
    const result = await trimSession(b.write(), {}, { newSessionId: id });
    const records = recordsOf(result.lines);
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) expect(r.sessionId).toBe(id);
    expect(result.output.sessionId).toBe(id);
    expect(result.verify.ok).toBe(true);
  });

  it('leaves sessionId alone without a new id', async () => {
    const b = build();
    const path = b.write();
    const result = await trimSession(path);
    for (const r of recordsOf(result.lines)) expect(r.sessionId).toBe(b.sessionId);
    // Lines the trim had no reason to change keep their bytes.
    const input = readFileSync(path, 'utf8').split('\n');
    expect(input).toContain(result.lines[0].toString('utf8'));
  });
});

describe('usage of the last response', () => {
  it('is rewritten to a smaller, uncached prompt size when tokens were removed', async () => {
    const b = conversation();
    const earlier = b.toolCall('Read', { file_path: P('src/report.ts') }, readOutput(300));
    const last = b.assistant([{ type: 'text', text: 'The end bound is exclusive.' }], { usage: usage({ input: 3, cacheWrite: 6_000, cacheRead: 20_000 }, 80) });
    const result = await trimSession(b.write());
    const records = recordsOf(result.lines);
    const rewritten = byUuid(records, last.uuid)!.message.usage;
    const removedTokens = result.input.tokens - result.output.tokens;
    expect(removedTokens).toBeGreaterThan(1000);
    expect(rewritten.input_tokens).toBe(26_003 - removedTokens);
    expect(rewritten).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 80, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } });
    // Earlier responses keep their figures.
    expect(byUuid(records, earlier.use.uuid)!.message.usage).toEqual(earlier.use.message.usage);
    expect(result.removed.usageRewritten).toBe(1);
  });

  it('is left untouched when nothing sent was removed', async () => {
    const b = conversation();
    const last = b.assistant([{ type: 'text', text: 'The end bound is exclusive.' }]);
    const result = await trimSession(b.write());
    expect(result.reduction.tokens).toBe(0);
    expect(result.removed.usageRewritten).toBe(0);
    expect(result.lines.map(String)).toContain(JSON.stringify(last));
  });
});

describe('verify on a hand-broken trimmed log', () => {
  /** A trimmed log on disk, and a way to write a broken copy of it. */
  async function trimmedFixture() {
    const b = conversation();
    const prompt = b.tip!;
    const read = b.toolCall('Read', { file_path: P('src/report.ts') }, readOutput(200), { say: 'Let me read the report code.' });
    const fix = b.user('Fix it please.');
    const edit = b.toolCall('Edit', { file_path: P('src/report.ts'), old_string: '<', new_string: '<=' }, 'The file has been updated successfully.');
    const done = b.assistant([{ type: 'text', text: 'Fixed: the end bound is inclusive now.' }]);
    const originalPath = b.write();
    const result = await trimSession(originalPath);
    expect(result.verify.ok).toBe(true);
    const records = recordsOf(result.lines);
    const original = await openSession(originalPath);
    const verifyBroken = async (edit: (records: Json[]) => Json[]) => {
      const broken = edit(structuredClone(records));
      const path = `${originalPath}.broken.jsonl`;
      writeFileSync(path, broken.map((r) => JSON.stringify(r)).join('\n') + '\n');
      return verifySessions(original, await openSession(path));
    };
    return { prompt, read, fix, edit, done, records, original, verifyBroken };
  }
  const kinds = (report: { faults: Array<{ kind: string }> }) => report.faults.map((f) => f.kind);

  it('passes on the unbroken trimmed log', async () => {
    const { verifyBroken } = await trimmedFixture();
    const report = await verifyBroken((r) => r);
    expect(report.ok).toBe(true);
    expect(report.faults).toEqual([]);
  });

  it('finds a missing assistant text', async () => {
    const { read, verifyBroken } = await trimmedFixture();
    const report = await verifyBroken((records) => {
      const line = byUuid(records, read.use.uuid)!;
      line.message.content = line.message.content.filter((b: Json) => b.type !== 'text');
      return records;
    });
    expect(report.ok).toBe(false);
    expect(kinds(report)).toContain('missing-text');
    expect(report.faults.find((f) => f.kind === 'missing-text')?.message).toContain('Let me read the report code.');
  });

  it('finds an unpaired tool_use', async () => {
    const { edit, verifyBroken } = await trimmedFixture();
    const report = await verifyBroken((records) => {
      const result = byUuid(records, edit.result.uuid)!;
      for (const r of records) if (r.parentUuid === result.uuid) r.parentUuid = result.parentUuid;
      return records.filter((r) => r !== result);
    });
    expect(report.ok).toBe(false);
    expect(kinds(report)).toContain('unpaired-tool-use');
  });

  it('finds a dangling parent', async () => {
    const { fix, verifyBroken } = await trimmedFixture();
    const report = await verifyBroken((records) => {
      byUuid(records, fix.uuid)!.parentUuid = randomUUID();
      return records;
    });
    expect(report.ok).toBe(false);
    expect(kinds(report)).toContain('dangling-parent');
  });

  it('finds a duplicate uuid', async () => {
    const { done, verifyBroken } = await trimmedFixture();
    const report = await verifyBroken((records) => [...records, structuredClone(byUuid(records, done.uuid)!)]);
    expect(report.ok).toBe(false);
    expect(kinds(report)).toContain('duplicate-uuid');
  });

  it('finds an empty message', async () => {
    const { done, verifyBroken } = await trimmedFixture();
    const report = await verifyBroken((records) => {
      byUuid(records, done.uuid)!.message.content = [];
      return records;
    });
    expect(report.ok).toBe(false);
    expect(kinds(report)).toContain('empty-message');
  });

  it('finds a null parentUuid mid-file (a chain break)', async () => {
    const { fix, verifyBroken } = await trimmedFixture();
    const report = await verifyBroken((records) => {
      byUuid(records, fix.uuid)!.parentUuid = null;
      return records;
    });
    expect(report.ok).toBe(false);
    expect(kinds(report)).toContain('chain-break');
  });
});

describe('superseded todo lists', () => {
  type Todo = { content: string; status: string; activeForm: string };
  const item = (content: string, status = 'pending'): Todo => ({ content, status, activeForm: `${content}ing` });
  const names = ['Read the report code', 'Fix the end bound', 'Add a test', 'Run the tests', 'Update the changelog'];
  const step = (done: number, extra: Todo[] = []): Todo[] => [...names.map((n, i) => item(n, i < done ? 'completed' : i === done ? 'in_progress' : 'pending')), ...extra];
  const RESULT = 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable';
  const useOf = (records: Json[], id: string): Json => {
    for (const r of records) for (const block of r.message?.content ?? []) if (block?.type === 'tool_use' && block.id === id) return block.input;
    throw new Error(`no tool_use ${id}`);
  };

  function session(lists: Todo[][]): { path: string; ids: string[] } {
    const b = conversation();
    const ids = lists.map((todos) => b.toolCall('TodoWrite', { todos }, RESULT, { toolUseResult: { oldTodos: [], newTodos: todos } }).id);
    b.assistant([{ type: 'text', text: 'All done.' }]);
    return { path: b.write(), ids };
  }

  it('keeps the first and the last list whole and cuts each one between to the items it changed, saying so in its result', async () => {
    const lists = [step(0), step(1), step(2, [item('Tag the release')]), step(5, [item('Tag the release', 'completed')])];
    const { path, ids } = session(lists);
    const result = await trimSession(path);
    const records = recordsOf(result.lines);
    expect(useOf(records, ids[0]).todos).toEqual(lists[0]);
    // The second call completed one item and started the next.
    expect(useOf(records, ids[1]).todos).toEqual([item(names[0], 'completed'), item(names[1], 'in_progress')]);
    // The third changed two and added one (additions last).
    expect(useOf(records, ids[2]).todos).toEqual([item(names[1], 'completed'), item(names[2], 'in_progress'), item('Tag the release')]);
    // Claude Code restores the todo list from the last TodoWrite it sends: whole.
    expect(useOf(records, ids[3]).todos).toEqual(lists[3]);
    expect(resultContent(records, ids[0])).toBe(RESULT);
    expect(resultContent(records, ids[1])).toBe(`[cmv: this TodoWrite shows only the items it added or changed; the earlier lists give the rest, and the last TodoWrite lists them all]\n${RESULT}`);
    expect(resultContent(records, ids[3])).toBe(RESULT);
    expect(result.removed.todoListsShortened).toBe(2);
    expect(result.verify.ok).toBe(true);
    expect(result.tokens.after.total).toBeLessThan(result.tokens.before.total);

    // Trimming the trimmed log changes nothing.
    const again = `${path}.trimmed.jsonl`;
    writeFileSync(again, result.lines.map((l) => `${l.toString()}\n`).join(''));
    const twice = await trimSession(again);
    expect(twice.lines.map((l) => l.toString())).toEqual(result.lines.map((l) => l.toString()));
    expect(twice.removed.todoListsShortened).toBe(0);
  });

  it('keeps a list whole when it drops an item, reorders items, or changes too little of a short list', async () => {
    // The second list of each: a shortened call could not give it back, or would save too little.
    const dropped = [step(0), step(1).slice(1), step(5)];
    const reordered = [step(0), [...step(1)].reverse(), step(5)];
    const short = [
      [item('A'), item('B')],
      [item('A', 'completed'), item('B')],
      [item('A', 'completed'), item('B', 'completed')],
    ];
    for (const lists of [dropped, reordered, short]) {
      const { path, ids } = session(lists);
      const result = await trimSession(path);
      const records = recordsOf(result.lines);
      expect(ids.map((id) => useOf(records, id).todos)).toEqual(lists);
      expect(result.removed.todoListsShortened).toBe(0);
    }
  });
});
