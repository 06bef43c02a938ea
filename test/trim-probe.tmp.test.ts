import { it } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { join, basename } from 'node:path';
import { tmpdir } from 'node:os';
import { trimSession } from '../src/trim/trim.js';
import { corpusFiles, sampleFiles } from '../test/helpers/corpus.js';
it('probe', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'p-'));
  for (const f of [...sampleFiles(), ...corpusFiles()]) {
    const r = await trimSession(f, {}, { newSessionId: '11111111-2222-3333-4444-555555555555' });
    const out = join(dir, basename(f));
    writeFileSync(out, r.lines.map(l => l.toString()+'\n').join(''));
    const r2 = await trimSession(out, {}, { newSessionId: '11111111-2222-3333-4444-555555555555' });
    const same = r2.lines.length === r.lines.length && r2.lines.every((l, i) => l.equals(r.lines[i]));
    let diffAt = -1; if (!same) diffAt = r2.lines.findIndex((l,i)=>!r.lines[i] || !l.equals(r.lines[i]));
    console.log(basename(f), r.verify.ok, r.verify.faults.slice(0,3).map(f=>f.kind+':'+f.message.slice(0,100)), r.reduction, 'idem', same, diffAt, r2.verify.ok, r2.verify.faults.slice(0,2).map(f=>f.kind+':'+f.message.slice(0,100)), JSON.stringify(r2.removed).slice(0,0));
  }
}, 600000);
