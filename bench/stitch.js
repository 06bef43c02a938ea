// Builds a large session for benchmarks by stitching real logs end to end, each copy with fresh
// uuids, tool, message and request ids, its first root linked to the previous copy's last entry and its timestamps
// moved after the previous copy's, so the whole file is one conversation, as Claude Code reads it. Usage: node bench/stitch.js <out.jsonl> <target MB> <files...>
// With --original-times first, every line keeps its own timestamp (the newest entry may then lie
// before the last compaction boundary in file order, as in real logs stitched from many sessions).
// With --parsed-only, lines that are not one JSON record are left out: one client writing one
// session writes none, and Claude Code stops loading a log over 5 MiB at the first of them.
import { readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

const args = process.argv.slice(2);
const flags = new Set();
while (args[0]?.startsWith('--')) flags.add(args.shift());
const originalTimes = flags.has('--original-times');
const parsedOnly = flags.has('--parsed-only');
const [out, targetMb, ...files] = args;
if (!out || !targetMb || files.length === 0) {
  console.error('usage: node bench/stitch.js <out.jsonl> <target MB> <files...>');
  process.exit(2);
}
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TOOL_ID = /\b(toolu_[A-Za-z0-9_]+|call_[A-Za-z0-9]+|msg_[A-Za-z0-9_]+|req_[A-Za-z0-9_]+)/g;
const sessionId = randomUUID();
const target = Number(targetMb) * 1024 * 1024;
const parts = [];
let bytes = 0;
let lastUuid = null;
let clock = Date.parse('2026-01-01T00:00:00.000Z');
for (let copy = 0; bytes < target; copy++) {
  for (const file of files) {
    if (bytes >= target) break;
    const map = new Map();
    const text = readFileSync(file, 'utf8')
      .replace(UUID, (u) => {
        if (!map.has(u)) map.set(u, randomUUID());
        return map.get(u);
      })
      .replace(TOOL_ID, (id) => `${id}_${copy}`);
    let linked = false;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let record;
      try {
        record = JSON.parse(line);
      } catch {
        if (parsedOnly) continue;
        parts.push(line);
        bytes += line.length + 1;
        continue;
      }
      if (record.sessionId) record.sessionId = sessionId;
      if (typeof record.timestamp === 'string' && !originalTimes) {
        clock += 1000;
        record.timestamp = new Date(clock).toISOString();
      }
      if (!linked && 'parentUuid' in record && record.parentUuid === null && lastUuid) {
        record.parentUuid = lastUuid;
        linked = true;
      }
      if (record.uuid && !record.isSidechain) lastUuid = record.uuid;
      const serialised = JSON.stringify(record);
      parts.push(serialised);
      bytes += Buffer.byteLength(serialised) + 1;
    }
  }
}
writeFileSync(out, `${parts.join('\n')}\n`);
console.log(`${out}: ${(bytes / 1e6).toFixed(1)} MB, ${parts.length} lines, session ${sessionId}`);
