#!/usr/bin/env node
// The package.json a tarball ships: without the `prepare` script that builds a git checkout on
// `npm install` (the tarball already holds dist/, and npm warns about install scripts in a
// dependency). `npm pack` runs this with `hide` before packing and `restore` after (as pinst does
// for postinstall); `restore` puts back the file exactly as it was.

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const path = join(root, 'package.json');
const saved = join(root, '.package.json.before-pack');
const mode = process.argv[2];
if (mode === 'hide') {
  const text = readFileSync(path, 'utf8');
  const manifest = JSON.parse(text);
  if (manifest.scripts?.prepare === undefined) process.exit(0);
  writeFileSync(saved, text);
  manifest.scripts['//prepare'] = `${manifest.scripts.prepare} (a git checkout only; the tarball holds dist/)`;
  delete manifest.scripts.prepare;
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (mode === 'restore') {
  if (existsSync(saved)) renameSync(saved, path);
} else {
  process.stderr.write('usage: pack-manifest.js hide|restore\n');
  process.exit(2);
}
