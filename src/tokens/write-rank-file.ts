// Build step (npm run build): writes dist/tokens/o200k.ranks from js-tiktoken's published data,
// so a run reads the rank table in milliseconds (see hashed-ranks.ts).

import { writeFileSync } from 'node:fs';
import { loadO200k } from './rank-table.js';
import { BUILT_RANK_FILE, HashedRanks } from './hashed-ranks.js';

const { ranks, pattern } = loadO200k();
writeFileSync(BUILT_RANK_FILE, HashedRanks.encode(ranks, pattern));
