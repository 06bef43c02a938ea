// `cmv compact` over a part that holds Claude Code's own compaction summary keeps what that
// summary listed: its files, its errors and fixes, its pending steps.

import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openSession } from '../../src/session/session.js';
import { compactSession } from '../../src/graph/compact.js';
import { carriedFromSummary } from '../../src/graph/rules/summary-rules.js';
import { contentText } from '../../src/session/payload.js';
import { HAS_CORPUS, SAMPLE_DIR, corpusFile } from '../helpers/corpus.js';

const SUMMARY = `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:
Summary:
3. Files and Code Sections:
   - **\`checkpoint/committed.go\`** - Added function to read archived sessions:
     \`\`\`go
     func x() {}
     \`\`\`
   - **\`README.md\`** - Read to understand the project

4. Errors and fixes:
   - **Missing \`strconv\` import**: Added "strconv" to imports in committed.go
   - **Integration tests failing** (CURRENT): Tests expect "Session:" in output

7. Pending Tasks:
   - Fix failing integration tests in resume_test.go

8. Current Work:
   Updating resume.go.
`;

function summaryOf(lines: Buffer[]): string {
  const records = lines.map((l) => JSON.parse(l.toString('utf8')));
  const ours = records.filter((r) => r.isCompactSummary).at(-1);
  return contentText(ours.message.content);
}

describe('compaction keeps what Claude Code knew', () => {
  it('carries the files changed, the errors and the pending tasks of a summary, not the files only read', () => {
    const carried = carriedFromSummary(SUMMARY)!;
    expect(carried).toContain('checkpoint/committed.go');
    expect(carried).not.toContain('README.md');
    expect(carried).toContain('Missing strconv import');
    expect(carried).toContain('Integration tests failing');
    expect(carried).toContain('Fix failing integration tests in resume_test.go');
  });

  it('carries nothing from a text that is no compaction summary', () => {
    expect(carriedFromSummary('Files:\n- a.go')).toBeUndefined();
  });

  it('writes the earlier summary of the sample session into the new one', async () => {
    const session = await openSession(join(SAMPLE_DIR, 'compacted.jsonl'));
    const earlier = session.conversation.entries.find((e) => e.isCompactSummary)!;
    const result = compactSession(session, { keep: 2 });
    const carried = carriedFromSummary(contentText(JSON.parse(session.lines[earlier.line].bytes!.toString('utf8')).message.content));
    expect(carried).toContain('tests/test_csv2md.py');
    expect(summaryOf(result.lines)).toContain(carried);
  });

  it.skipIf(!HAS_CORPUS)("keeps a real log's summary: its files, errors and pending steps", async () => {
    const session = await openSession(corpusFile('entire-b02936744f-v2.1.5-apierrors-2compacts-3MB.jsonl'));
    const text = summaryOf(compactSession(session, { keep: 5 }).lines);
    expect(text).toContain("From Claude Code's earlier summary");
    expect(text).toContain('resume.go');
    expect(text).toContain('junk code in `getLastTimestampFromBytes`'.replace(/`/g, ''));
    expect(text).toMatch(/Errors and fixes:\n- /);
  });
});
