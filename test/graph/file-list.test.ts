// File lists as a shell would expand them: shared folders written once, every path recoverable.

import { describe, expect, it } from 'vitest';
import { expandFileList, fileList } from '../../src/graph/file-list.js';

describe('fileList', () => {
  it('writes a shared folder once, and a shared extension once', () => {
    expect(fileList(['api/main.py', 'api/auth.py', 'tests/test_auth.py'])).toBe('api/{main,auth}.py tests/test_auth.py');
  });

  it('nests folders, keeps absolute paths, dotfiles, folders and route segments whole', () => {
    const paths = ['src/db/schema.ts', 'src/sync/engine.ts', 'src/sync/__tests__/engine.test.ts', '/etc/app/conf.toml', '.github/workflows/ci.yml', 'resolvers/', 'app/[locale]/page.tsx'];
    const list = fileList(paths);
    expect(list).toBe('src/{db/schema.ts,sync/{engine.ts,__tests__/engine.test.ts}} /etc/app/conf.toml .github/workflows/ci.yml resolvers/ app/[locale]/page.tsx');
    expect(expandFileList(list)).toEqual([
      'src/db/schema.ts',
      'src/sync/engine.ts',
      'src/sync/__tests__/engine.test.ts',
      '/etc/app/conf.toml',
      '.github/workflows/ci.yml',
      'resolvers/',
      'app/[locale]/page.tsx',
    ]);
  });

  it('lists paths with spaces or braces plainly', () => {
    expect(fileList(['My Docs/a.md', 'My Docs/b.md'])).toBe('My Docs/a.md, My Docs/b.md');
    expect(fileList(['src/{a}.ts', 'src/b.ts'])).toBe('src/{a}.ts src/b.ts');
  });

  it('gives back every path it was given, on real session paths', () => {
    const paths = ['tally/report.py', 'tally/model.py', 'tally/__init__.py', 'tests/test_report.py', '.', 'tests/test_money.py', 'x/a.b.py', 'x/c.py'];
    expect(expandFileList(fileList(paths)).sort()).toEqual([...paths].sort());
  });
});
