// The session reader against real Claude Code logs (../shared/corpus): every file round-trips
// byte for byte, and the model's counts match figures verified by hand with python3 and jq.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, sessionBytes, findSubagentFiles, type Session } from '../../src/session/session.js';
import { sessionStats } from '../../src/analyze/session-stats.js';
import { CORPUS_DIR, HAS_CORPUS, corpusFile, corpusFiles } from '../helpers/corpus.js';

const MALFORMED = 'entire-37995ebed6-v2.1.7-12-MALFORMED-concat.jsonl';
const TOOL_HEAVY = 'spotter-tool_heavy-v2.1.38.jsonl';

/**
 * Figures counted by hand, independently of cmv: records split with python's json.raw_decode
 * (so the glued line yields both its records), tool blocks counted per content array, API
 * responses grouped by message.id + requestId; a response's usage is the figure of its largest
 * line (the prompt figures are equal on every line, output_tokens grows), `<synthetic>` excluded.
 * `summedOutput` is what a sum over the split lines would wrongly give.
 */
interface HandCounts {
  lines: number;
  types: Record<string, number>;
  toolUses: number;
  toolResults: number;
  compactBoundaries: number;
  sidechainEntries: number;
  sidechains: number;
  apiCalls: number;
  usage: { input: number; cacheWrite: number; cacheRead: number; output: number };
  summedOutput: number;
  lastContext: number;
}

const HAND_COUNTS: Record<string, HandCounts> = {
  [TOOL_HEAVY]: {
    lines: 39,
    types: { 'file-history-snapshot': 3, progress: 10, user: 13, assistant: 9, 'queue-operation': 2, system: 2 },
    toolUses: 6,
    toolResults: 6,
    compactBoundaries: 0,
    sidechainEntries: 0,
    sidechains: 0,
    apiCalls: 4,
    usage: { input: 54, cacheWrite: 17696, cacheRead: 88231, output: 212 },
    summedOutput: 271,
    lastContext: 27666,
  },
  [MALFORMED]: {
    lines: 170,
    types: { 'file-history-snapshot': 9, user: 47, assistant: 104, system: 4, summary: 2, progress: 5 },
    toolUses: 41,
    toolResults: 41,
    compactBoundaries: 0,
    sidechainEntries: 0,
    sidechains: 0,
    apiCalls: 42,
    usage: { input: 346, cacheWrite: 168250, cacheRead: 2618979, output: 7047 },
    summedOutput: 7265,
    lastContext: 90454,
  },
  'fasthooks-c45af7b1-v2.0.76-manual-compact.jsonl': {
    lines: 63,
    types: { 'file-history-snapshot': 10, user: 19, assistant: 28, system: 6 },
    toolUses: 10,
    toolResults: 10,
    compactBoundaries: 1,
    sidechainEntries: 0,
    sidechains: 0,
    apiCalls: 12,
    usage: { input: 132, cacheWrite: 8467, cacheRead: 223265, output: 1480 },
    summedOutput: 1526,
    lastContext: 21331,
  },
  'ccviewer-fe5e1c67-v1.0.98-long.jsonl': {
    lines: 438,
    types: { summary: 1, user: 175, assistant: 262 },
    toolUses: 167,
    toolResults: 167,
    compactBoundaries: 0,
    sidechainEntries: 405,
    // sidechain roots: isSidechain entries whose parent is not itself a sidechain entry
    sidechains: 5,
    apiCalls: 170,
    usage: { input: 818, cacheWrite: 137976, cacheRead: 3647854, output: 51933 },
    summedOutput: 77612,
    lastContext: 21552,
  },
  'entire-b02936744f-v2.1.5-apierrors-2compacts-3MB.jsonl': {
    lines: 593,
    types: { system: 57, 'file-history-snapshot': 16, user: 153, assistant: 367 },
    toolUses: 136,
    toolResults: 136,
    compactBoundaries: 2,
    sidechainEntries: 0,
    sidechains: 0,
    // 148 distinct message ids, one of them a `<synthetic>` API-error placeholder
    apiCalls: 147,
    usage: { input: 1204, cacheWrite: 1280052, cacheRead: 14988341, output: 75508 },
    summedOutput: 76044,
    lastContext: 148495,
  },
  'sessionshare-0ccf1a04-v2.1.15-16-apierror.jsonl': {
    lines: 86,
    types: { 'file-history-snapshot': 10, user: 24, assistant: 25, 'queue-operation': 14, system: 11, progress: 1, summary: 1 },
    toolUses: 7,
    toolResults: 7,
    compactBoundaries: 0,
    sidechainEntries: 0,
    sidechains: 0,
    apiCalls: 11,
    usage: { input: 70, cacheWrite: 46482, cacheRead: 194395, output: 32 },
    summedOutput: 82,
    lastContext: 24662,
  },
};

describe.skipIf(!HAS_CORPUS)('real Claude Code logs', () => {
  describe('every corpus file', () => {
    for (const file of corpusFiles()) {
      it(`opens ${basename(file)} and writes it back byte-identical`, async () => {
        const session = await openSession(file);
        expect(sessionBytes(session).equals(readFileSync(file))).toBe(true);
        expect(session.malformedLines).toEqual([]);
      });
    }
  });

  describe('the glued line of the malformed file', () => {
    let session: Session;
    beforeAll(async () => {
      session = await openSession(corpusFile(MALFORMED));
    });

    it('reports line 128 as glued and nothing as malformed', () => {
      expect(session.gluedLines).toEqual([128]);
      expect(session.malformedLines).toEqual([]);
    });

    it('recovers both records of line 128: the assistant message and the summary after it', () => {
      const line = session.lines[127];
      expect(line.status).toBe('glued');
      expect(line.entries.map((e) => [e.type, e.record])).toEqual([
        ['assistant', 0],
        ['summary', 1],
      ]);
      expect(line.entries[0].uuid).toBe('3252495b-f5ee-4004-9370-21c6d432eb59');
      expect(line.entries[0].messageId).toBe('msg_01QsjUKj2qiHGGqN8tpRTCRh');
      expect(line.entries[1].leafUuid).toBe('cbd0e4b0-4666-4450-af41-f0544047abf7');
    });
  });

  describe('counts verified by hand', () => {
    for (const [name, hand] of Object.entries(HAND_COUNTS)) {
      describe(name, () => {
        let session: Session;
        beforeAll(async () => {
          session = await openSession(corpusFile(name), { findSubagents: false });
        });

        it('counts lines, entry types, tool calls and tool results', () => {
          const stats = sessionStats(session);
          expect(stats.lines).toBe(hand.lines);
          expect(stats.entries).toEqual(hand.types);
          expect(stats.messages.toolUses).toBe(hand.toolUses);
          expect(stats.messages.toolResults).toBe(hand.toolResults);
          expect(stats.messages.user).toBe(hand.types.user);
          expect(stats.messages.assistant).toBe(hand.types.assistant);
        });

        it('finds the compact boundaries and the inline sidechains', () => {
          const c = session.conversation;
          expect(c.compactBoundaries).toHaveLength(hand.compactBoundaries);
          expect(c.entries.filter((e) => e.isSidechain)).toHaveLength(hand.sidechainEntries);
          expect(c.sidechains.size).toBe(hand.sidechains);
        });

        it('counts each API response once, with the usage of its largest line, not the sum of its lines', () => {
          const { usage } = sessionStats(session);
          expect(usage.apiCalls).toBe(hand.apiCalls);
          expect(usage.inputTokens).toBe(hand.usage.input);
          expect(usage.cacheWriteTokens).toBe(hand.usage.cacheWrite);
          expect(usage.cacheReadTokens).toBe(hand.usage.cacheRead);
          expect(usage.outputTokens).toBe(hand.usage.output);
          expect(usage.outputTokens).not.toBe(hand.summedOutput);
          expect(usage.lastContextTokens).toBe(hand.lastContext);
        });
      });
    }
  });

  describe('parallel tool calls split over lines', () => {
    it('keeps both tool_use lines of a split response and both results on the active path', async () => {
      // Lines 29-30: one response, WebSearch and Glob tool_use on separate lines (30's parent is 29).
      // Line 32: Glob's result, parent line 30; line 33: WebSearch's result, parent line 29. The
      // chain from the leaf runs through 33 -> 29, so 30 and 32 are reachable only as siblings.
      const session = await openSession(corpusFile(TOOL_HEAVY), { findSubagents: false });
      const c = session.conversation;
      const at = (line: number) => c.entries.find((e) => e.line === line - 1)!;
      const webSearch = at(29);
      const glob = at(30);
      expect(webSearch.blocks.map((b) => b.name)).toEqual(['WebSearch']);
      expect(glob.blocks.map((b) => b.name)).toEqual(['Glob']);
      expect(c.responseOf.get(webSearch)).toBe(c.responseOf.get(glob));
      expect(at(32).parentUuid).toBe(glob.uuid);
      expect(at(33).parentUuid).toBe(webSearch.uuid);
      for (const line of [29, 30, 32, 33]) expect(c.activePath).toContain(at(line));
      for (const line of [29, 30, 32, 33]) expect(c.sentMessages).toContain(at(line));
    });

    it('sends every message of a linear session with parallel calls, except a blank-text line, plus local command output', async () => {
      const session = await openSession(corpusFile(TOOL_HEAVY), { findSubagents: false });
      const c = session.conversation;
      const conversational = c.entries.filter((e) => e.type === 'user' || e.type === 'assistant');
      expect(conversational).toHaveLength(22);
      // Line 27 is an assistant line whose only block is the text "\n\n": Claude Code drops it.
      const blank = conversational.find((e) => e.line === 26)!;
      expect(blank.blocks.map((b) => [b.type, b.chars])).toEqual([['text', 2]]);
      const sent = c.sentMessages;
      expect(sent.filter((e) => e.type === 'user' || e.type === 'assistant')).toEqual(conversational.filter((e) => e !== blank));
      expect(sent.filter((e) => e.type !== 'user' && e.type !== 'assistant').map((e) => `${e.type}/${e.subtype}`)).toEqual(['system/local_command', 'system/local_command']);
    });
  });

  describe('the three subagent layouts', () => {
    it('groups inline isSidechain entries into sidechains (1.0.x)', async () => {
      for (const [name, chains] of [
        ['ccviewer-fe5e1c67-v1.0.98-long.jsonl', 5],
        ['happy-400429ba-v1.0.51-3MB.jsonl', 7],
      ] as const) {
        const session = await openSession(corpusFile(name), { findSubagents: false });
        const c = session.conversation;
        expect(c.isSubagentTranscript).toBe(false);
        expect(c.sidechains.size).toBe(chains);
        for (const chain of c.sidechains.values()) for (const entry of chain) expect(entry.isSidechain).toBe(true);
        expect(c.activePath.some((e) => e.isSidechain)).toBe(false);
      }
    });

    it('recognises a subagent transcript file and resumes its own chain', async () => {
      const session = await openSession(corpusFile('sessionshare-4b2030ed-subagents-agent-a2018e5.jsonl'), { findSubagents: false });
      const c = session.conversation;
      expect(c.isSubagentTranscript).toBe(true);
      expect(c.sidechains.size).toBe(0);
      expect(c.sentMessages.length).toBeGreaterThan(0);
      expect(sessionStats(session).isSubagentTranscript).toBe(true);
    });

    it('does not take a main session for a subagent transcript', async () => {
      const session = await openSession(corpusFile('sessionshare-4b2030ed-v2.1.14.jsonl'), { findSubagents: false });
      expect(session.conversation.isSubagentTranscript).toBe(false);
    });

    describe('transcript files on disk', () => {
      let dir: string;
      beforeAll(() => {
        dir = mkdtempSync(join(tmpdir(), 'cmv-subagents-'));
      });
      afterAll(() => rmSync(dir, { recursive: true, force: true }));

      it('finds <sessionId>/subagents/agent-<id>.jsonl beside the session (2.1.x)', async () => {
        const id = '4b2030ed-5563-49ea-b703-6a002f2d3cc8';
        const sessionPath = join(dir, `${id}.jsonl`);
        copyFileSync(corpusFile('sessionshare-4b2030ed-v2.1.14.jsonl'), sessionPath);
        mkdirSync(join(dir, id, 'subagents'), { recursive: true });
        copyFileSync(corpusFile('sessionshare-4b2030ed-subagents-agent-a2018e5.jsonl'), join(dir, id, 'subagents', 'agent-a2018e5.jsonl'));
        writeFileSync(join(dir, id, 'subagents', 'agent-a2018e5.meta.json'), '{}');

        expect(await findSubagentFiles(sessionPath)).toEqual([{ path: join(dir, id, 'subagents', 'agent-a2018e5.jsonl'), agentId: 'a2018e5', layout: 'nested' }]);
        const session = await openSession(sessionPath);
        expect(session.subagentFiles).toHaveLength(1);
        expect(sessionStats(session).subagents).toBe(1);
      });

      it('finds agent-<id>.jsonl in the same folder by the sessionId on its lines (2.0.x)', async () => {
        const id = 'c45af7b1-cb7c-4e51-93db-8cbb250a877a';
        const sessionPath = join(dir, `${id}.jsonl`);
        copyFileSync(corpusFile('fasthooks-c45af7b1-v2.0.76-manual-compact.jsonl'), sessionPath);
        copyFileSync(corpusFile('fasthooks-agent-af1ff21-v2.0.76-warmup.jsonl'), join(dir, 'agent-af1ff21.jsonl'));
        // Another session's transcript in the same folder is not this session's.
        copyFileSync(corpusFile('sessionshare-0ccf1a04-subagents-agent-a5bdbc1.jsonl'), join(dir, 'agent-a5bdbc1.jsonl'));

        expect(await findSubagentFiles(sessionPath)).toEqual([{ path: join(dir, 'agent-af1ff21.jsonl'), agentId: 'af1ff21', layout: 'beside' }]);
      });

      it('finds no subagents for a subagent transcript itself', async () => {
        expect(await findSubagentFiles(join(dir, 'agent-af1ff21.jsonl'))).toEqual([]);
      });
    });
  });

  it('reads the corpus from the shared folder', () => {
    expect(corpusFiles().length).toBeGreaterThanOrEqual(30);
    expect(CORPUS_DIR).toMatch(/corpus[/\\]claude-code$/);
  });
});
