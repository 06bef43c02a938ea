// Imported first by the benches: they time cmv as bin/cmv.js runs it, with its V8 settings (src/v8-tuning.ts).
import { tuneV8 } from '../dist/v8-tuning.js';

tuneV8();
