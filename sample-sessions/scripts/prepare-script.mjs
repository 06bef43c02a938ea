#!/usr/bin/env node
// Fill in deterministic tool_use ids and thinking signatures so a regenerated session
// carries the same ids every time (the mock would otherwise generate random ones).
// Usage: node prepare-script.mjs <in.json> <out.json> <seed> [client-version]
// For client 2.1.332 (native): every invocation gets --allowedTools for the tools the scripts
// call (2.1.332 offers Glob, Grep and the Task tools only when named there), and every
// Agent/Task call runs in the foreground (2.1.332 runs agents in the background by default).
import fs from 'node:fs';
import crypto from 'node:crypto';

const [inPath, outPath, seed, client] = process.argv.slice(2);
const NEW_CLIENT = client && client !== '2.1.100';
const ALLOWED = 'Glob,Grep,TaskCreate,TaskUpdate,TaskList,TaskGet,Agent';
if (!inPath || !outPath || !seed) { console.error('usage: prepare-script.mjs <in.json> <out.json> <seed>'); process.exit(2); }
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const digest = (s) => crypto.createHash('sha256').update(s).digest();
const base62 = (buf, n) => Array.from(buf).slice(0, n).map((b) => B62[b % 62]).join('');

const script = JSON.parse(fs.readFileSync(inPath, 'utf8'));
let tools = 0, thinks = 0;
for (const inv of script.invocations || []) {
  if (NEW_CLIENT && !(inv.args || []).includes('--allowedTools')) inv.args = [...(inv.args || []), '--allowedTools', ALLOWED];
  for (const resp of inv.responses || []) {
    for (const b of resp.content || []) {
      if (NEW_CLIENT && b.type === 'tool_use' && (b.name === 'Agent' || b.name === 'Task') && b.input) b.input.run_in_background = false;
      if (b.type === 'tool_use' && !b.id) b.id = 'toolu_01' + base62(digest(`${seed}:tool:${++tools}`), 22);
      if (b.type === 'thinking' && !b.signature) {
        const n = ++thinks;
        b.signature = Buffer.concat([0, 1, 2, 3, 4].map((k) => digest(`${seed}:sig:${n}:${k}`))).toString('base64');
      }
    }
  }
}
delete script.comment;
fs.writeFileSync(outPath, JSON.stringify(script, null, 2) + '\n');
console.error(`prepare-script: ${seed}: ${tools} tool ids, ${thinks} signatures`);
