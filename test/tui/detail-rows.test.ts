// The detail pane shows as many rows as its header counts: blank lines keep their row (Ink gives
// an empty <Text> none) and a text with line breaks stays on its one row.

import './tui-env.js';
import { createElement } from 'react';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { DetailPane, detailLines, type DetailPaneProps } from '../../src/tui/components/detail-pane.js';
import type { TreeRow } from '../../src/tui/tree-model.js';

function snapshotRow(message: string): TreeRow {
  return { kind: 'snapshot', key: 'n', depth: 0, snapshot: { name: 'before-refactor', kind: 'snapshot', sessionId: 'a1b2c3d4', createdAt: '2026-01-02T03:04:05Z', message, tags: ['stable'] } };
}

function props(row: TreeRow, height: number, scroll: number): DetailPaneProps {
  const none = { state: 'loading' } as const;
  return { row, detail: none, breakEven: none, graph: none, scroll, focused: false, width: 70, height };
}

/** The rows inside the frame: the title, then the content, without the border. */
function inside(frame: string): string[] {
  const rows = frame.split('\n').slice(1, -1);
  return rows.map((r) => r.slice(2, -2).trimEnd());
}

/** Every window of the pane's lines at a few heights: the rows drawn are the rows the header counts. */
function expectRowsAsCounted(row: TreeRow) {
  const all = detailLines(props(row, 20, 0)).map((l) =>
    l.segments
      .map((s) => s.text)
      .join('')
      .replace(/\n/g, ' '),
  );
  for (const height of [5, 7, 10]) {
    for (let scroll = 0; scroll < all.length; scroll++) {
      const app = render(createElement(DetailPane, props(row, height, scroll)));
      const [title, ...content] = inside(app.lastFrame()!);
      app.unmount();
      const counted = /\((\d+)-(\d+) of (\d+)\)/.exec(title);
      const [first, last] = counted ? [Number(counted[1]), Number(counted[2])] : [1, all.length];
      expect(last - first + 1).toBe(Math.min(all.length, height - 3));
      expect(content, `height ${height}, scroll ${scroll}: ${title}`).toEqual([...all.slice(first - 1, last), ...Array(height - 3 - (last - first + 1)).fill('')]);
    }
  }
  return all;
}

describe('the detail pane', () => {
  it('shows every row its header counts: a blank line keeps its row', () => {
    expect(expectRowsAsCounted(snapshotRow('tests pass'))).toContain('');
  });

  it('keeps a text with line breaks on its one row', () => {
    expect(expectRowsAsCounted(snapshotRow('tests pass\nnext: the parser'))).toContain('tests pass next: the parser');
  });
});
