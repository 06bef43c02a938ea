#!/usr/bin/env node
// Validate and summarise sample session files: every line must be JSON, and we report line
// types, tool_use counts (main file and subagent files), errors, compaction markers, size.
// Usage: node inspect.mjs <session.jsonl> [...]        exit 1 if any line is not valid JSON
import fs from 'node:fs';
import path from 'node:path';

function scan(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.length);
  const types = {}, tools = {}, out = { lines: lines.length, bad: 0, errors: 0, thinking: 0, compact: 0, images: 0 };
  for (const l of lines) {
    let d; try { d = JSON.parse(l); } catch { out.bad++; continue; }
    const t = d.type + (d.subtype ? ':' + d.subtype : '') + (d.attachment?.type ? ':' + d.attachment.type : '');
    types[t] = (types[t] || 0) + 1;
    if (d.subtype === 'compact_boundary') out.compact++;
    const c = d.message?.content;
    if (Array.isArray(c)) for (const b of c) {
      if (b.type === 'tool_use') tools[b.name] = (tools[b.name] || 0) + 1;
      if (b.type === 'thinking') out.thinking++;
      if (b.type === 'tool_result' && b.is_error) out.errors++;
      if (b.type === 'tool_result' && Array.isArray(b.content) && b.content.some((x) => x.type === 'image')) out.images++;
    }
  }
  return { ...out, types, tools };
}

let bad = 0;
for (const file of process.argv.slice(2)) {
  const s = scan(file);
  bad += s.bad;
  const side = path.join(path.dirname(file), path.basename(file, '.jsonl'));
  const subs = fs.existsSync(path.join(side, 'subagents')) ? fs.readdirSync(path.join(side, 'subagents')).filter((f) => f.endsWith('.jsonl')) : [];
  console.log(`${path.basename(file)}: ${s.lines} lines, ${fs.statSync(file).size} bytes, invalid=${s.bad}, thinking=${s.thinking}, error results=${s.errors}, images=${s.images}, compact_boundary=${s.compact}`);
  console.log(`  types: ${Object.entries(s.types).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  console.log(`  tools: ${Object.entries(s.tools).map(([k, v]) => `${k}=${v}`).join(' ') || '-'}`);
  for (const f of subs) {
    const ss = scan(path.join(side, 'subagents', f));
    bad += ss.bad;
    const meta = path.join(side, 'subagents', f.replace(/\.jsonl$/, '.meta.json'));
    console.log(`  subagent ${f} (${fs.existsSync(meta) ? fs.readFileSync(meta, 'utf8').trim() : 'no meta'}): ${ss.lines} lines, invalid=${ss.bad}, tools: ${Object.entries(ss.tools).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  }
}
process.exit(bad ? 1 : 0);
