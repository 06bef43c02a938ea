// The tarball `npm pack` makes, as a user installs it: no install script for npm to warn about
// (the tarball holds dist/; `prepare` builds a git checkout only), the MIT LICENSE package.json
// names, source maps that carry their sources (src/ is not shipped), and the developer's
// package.json put back byte for byte afterwards.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD, ROOT, buildIfStale } from '../helpers/built-cli.js';

let dir: string;
let files: Map<string, string>;
let before: string;
let restored: string;

function untar(tarball: string, into: string): void {
  const run = spawnSync('tar', ['xzf', tarball, '-C', into], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
}

beforeAll(async () => {
  // npm pack's prepack builds dist/ and hides `prepare`; here the private build the other tests
  // share is packed from a staging copy of the package, with the same hide/restore steps around a
  // pack without scripts, so nothing rebuilds dist/ or rewrites package.json under another test.
  await buildIfStale();
  dir = mkdtempSync(join(tmpdir(), 'cmv-pack-'));
  const stage = join(dir, 'stage');
  before = readFileSync(join(ROOT, 'package.json'), 'utf8');
  const manifest = JSON.parse(before) as { files: string[]; scripts: Record<string, string> };
  expect(manifest.scripts.prepack).toMatch(/node scripts\/pack-manifest\.js hide$/);
  expect(manifest.scripts.postpack).toBe('node scripts/pack-manifest.js restore');
  for (const entry of ['package.json', 'README.md', 'LICENSE', 'scripts', ...manifest.files.filter((f) => f !== 'dist')]) cpSync(join(ROOT, entry), join(stage, entry), { recursive: true });
  cpSync(join(BUILD, 'dist'), join(stage, 'dist'), { recursive: true });
  const step = (mode: string) => spawnSync(process.execPath, [join(stage, 'scripts', 'pack-manifest.js'), mode], { cwd: stage, encoding: 'utf8' });
  expect(step('hide').status).toBe(0);
  const pack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: stage, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } });
  expect(step('restore').status).toBe(0);
  restored = readFileSync(join(stage, 'package.json'), 'utf8');
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  untar(join(dir, info.filename), dir);
  files = new Map(info.files.map((f) => [f.path, join(dir, 'package', f.path)]));
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packed tarball', () => {
  it('has no install script in its package.json, and the working copy keeps its prepare', () => {
    const manifest = JSON.parse(readFileSync(files.get('package.json')!, 'utf8'));
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts?.[script], script).toBeUndefined();
    expect(restored).toBe(before);
    expect(JSON.parse(before).scripts.prepare).toBeDefined();
  });

  it('ships the MIT LICENSE that package.json names', () => {
    expect(JSON.parse(before).license).toBe('MIT');
    expect(readFileSync(files.get('LICENSE')!, 'utf8')).toMatch(/^MIT License/);
  });

  it('ships source maps that carry their sources, and no src/', () => {
    const maps = [...files.keys()].filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(50);
    expect([...files.keys()].some((f) => f.startsWith('src/'))).toBe(false);
    for (const map of maps) {
      const parsed = JSON.parse(readFileSync(files.get(map)!, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(parsed.sourcesContent?.length, map).toBe(parsed.sources.length);
      expect(
        parsed.sourcesContent!.every((s) => typeof s === 'string' && s.length > 0),
        map,
      ).toBe(true);
    }
  });

  it('holds the built CLI its bin runs', () => {
    expect(files.has('bin/cmv.js')).toBe(true);
    expect(files.has('dist/cli/main.js')).toBe(true);
    expect(files.has('dist/cli/colour.js')).toBe(true);
  });
});
