// Build step (npm run build): writes dist/tokens/o200k.ranks from js-tiktoken's published data,
// so a run reads the rank table in milliseconds (see hashed-ranks.ts).

import { writeFileSync } from 'node:fs';
import { loadO200k } from './rank-table.js';
import { HashedRanks } from './hashed-ranks.js';

const { ranks, pattern } = loadO200k();
writeFileSync(new URL('./o200k.ranks', import.meta.url), HashedRanks.encode(ranks, pattern));
