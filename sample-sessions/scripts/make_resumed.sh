#!/usr/bin/env bash
# Scratch project for the `resumed` session: "semver-lite", a tiny dependency-free ESM
# semantic-version helper (parse/valid/bump) with node:test tests. parse() silently drops
# prerelease tags, which the second invocation of the session runs into.
# Usage: make_resumed.sh <dir>
. "$(dirname "$0")/lib.sh"
D="$1"; new_project "$D"
mkdir -p "$D/src" "$D/test"
cat > "$D/package.json" <<'J'
{
  "name": "semver-lite",
  "version": "0.2.0",
  "type": "module",
  "exports": "./src/semver.js",
  "scripts": { "test": "node --test test/" }
}
J
cat > "$D/README.md" <<'R'
# semver-lite

Minimal semantic-version helpers with no dependencies (no range support).

```js
import { parse, valid, bump } from 'semver-lite';

parse('1.4.2');          // { major: 1, minor: 4, patch: 2 }
valid('1.4');            // false
bump('1.4.2', 'minor');  // '1.5.0'
```

## License

MIT
R
cat > "$D/src/semver.js" <<'JS'
// Minimal semantic-version helpers (no ranges).
const RE = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parse(version) {
  const m = RE.exec(String(version).trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

export function valid(version) {
  return parse(version) !== null;
}

export function bump(version, part) {
  const v = parse(version);
  if (!v) throw new TypeError(`invalid version: ${version}`);
  if (part === 'major') return `${v.major + 1}.0.0`;
  if (part === 'minor') return `${v.major}.${v.minor + 1}.0`;
  if (part === 'patch') return `${v.major}.${v.minor}.${v.patch + 1}`;
  throw new TypeError(`unknown part: ${part}`);
}
JS
cat > "$D/test/semver.test.js" <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, valid, bump } from '../src/semver.js';

test('parse', () => {
  assert.deepEqual(parse('1.2.3'), { major: 1, minor: 2, patch: 3 });
  assert.deepEqual(parse('v10.0.1'), { major: 10, minor: 0, patch: 1 });
  assert.equal(parse('1.2'), null);
});

test('valid', () => {
  assert.equal(valid('0.0.1'), true);
  assert.equal(valid('01.x.3'), false);
});

test('bump', () => {
  assert.equal(bump('1.2.3', 'major'), '2.0.0');
  assert.equal(bump('1.2.3', 'minor'), '1.3.0');
  assert.equal(bump('1.2.3', 'patch'), '1.2.4');
  assert.throws(() => bump('1.2.3', 'micro'), /unknown part/);
});
JS
git_init_commit "$D" "semver-lite 0.2.0"
echo "created $D"
