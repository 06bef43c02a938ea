// Resume blocks: hard budgets in every tier, nothing cut mid-item, the most important first, the
// same block for the same log.

import { describe, expect, it } from 'vitest';
import { basename, join } from 'node:path';
import { openSession } from '../../src/session/session.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { buildResume, TIER_BUDGETS, type ResumeTier } from '../../src/graph/resume-block.js';
import { baseName, expandFileList } from '../../src/graph/file-list.js';
import { compactChoice, compactTask, goalHead } from '../../src/graph/resume-items.js';
import { countTokens } from '../../src/tokens/counter.js';
import { HAS_CORPUS, SAMPLE_DIR, corpusFiles, sampleFiles } from '../helpers/corpus.js';
import { SCRIPT_CWD, scriptSession } from './script-session.js';

const TIERS = Object.keys(TIER_BUDGETS) as ResumeTier[];

/** The paths the Files line names, braces expanded ("api/{a,b}.py" -> api/a.py, api/b.py). */
function shownFiles(text: string): string[] {
  const line = text.split('\n').find((l) => l.startsWith('Files: '));
  if (!line) return [];
  return line
    .slice('Files: '.length)
    .split(/; new: |^new: /)
    .flatMap((part) => expandFileList(part));
}

const files = [...sampleFiles(), ...(HAS_CORPUS ? corpusFiles() : [])];

describe('every tier fits its budget, with whole items only', () => {
  it.each(files.map((f) => [basename(f), f]))('%s', async (_, file) => {
    const graph = buildGraph(await openSession(file));
    for (const tier of TIERS) {
      const block = buildResume(graph, { tier });
      expect(block.tokens, tier).toBeLessThanOrEqual(TIER_BUDGETS[tier]);
      expect(block.tokens).toBe(countTokens(block.text));
      // Each item a section names is in the text whole; files as their list expands.
      const { files, ...rest } = block.sections;
      for (const items of Object.values(rest)) for (const item of items) expect(block.text, tier).toContain(item);
      // A file is named in full, or by its base name at the critical tier when that is short of room.
      const shown = shownFiles(block.text);
      expect(shown).toHaveLength(files.length);
      for (const path of files) expect(shown.includes(path) || (tier === 'critical' && shown.includes(baseName(path))), `${tier}: ${path}`).toBe(true);
    }
    for (const budget of [40, 78]) expect(buildResume(graph, { budget }).tokens).toBeLessThanOrEqual(budget);
  });
});

describe('what a block holds', () => {
  it('puts goal, work in progress, done work, decisions and files in a fixed order', () => {
    const graph = buildGraph(
      scriptSession([
        { user: 'Build a FastAPI authentication service with JWT' },
        { assistant: 'Decided: bcrypt for password hashing. Files: api/main.py' },
        { user: 'Add auth endpoints' },
        { assistant: 'Completed: login and logout endpoints.' },
        { user: 'Add rate limiting' },
        { assistant: 'Working on: rate limiting via slowapi.' },
      ]),
    );
    const block = buildResume(graph, { tier: 'standard' });
    // The first reply wrote api/main.py with its choices: the opening request was carried out.
    const order = ['Goal✓', 'Doing:', 'Done:', 'Chosen:', 'Files:'].map((h) => block.text.indexOf(h));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Telegraphic: no articles; the verb of work only where the budget is tightest (the critical tier).
    expect(block.sections.goal).toEqual(['Build FastAPI authentication service with JWT']);
    expect(block.sections.inProgress[0]).toBe('Add rate limiting');
    expect(buildResume(graph, { tier: 'critical' }).sections.inProgress[0]).toBe('rate limiting');
    expect(block.sections.done).toEqual(expect.arrayContaining(['Build FastAPI authentication service with JWT', 'Add auth endpoints']));
    expect(block.sections.decisions).toEqual(expect.arrayContaining(['bcrypt', 'JWT']));
    // The why of a decision at the standard tier, not at the critical one.
    expect(block.text).toContain('bcrypt (password hashing)');
    expect(buildResume(graph, { tier: 'critical' }).text).not.toContain('(password hashing)');
  });

  it('gives each section a share of a small budget rather than filling it with one', async () => {
    const graph = buildGraph(await openSession(join(SAMPLE_DIR, 'coding.jsonl')));
    const block = buildResume(graph, { budget: 78 });
    for (const section of ['goal', 'done', 'decisions', 'files'] as const) expect(block.sections[section].length, section).toBeGreaterThan(0);
  });

  it('writes telegraphic items and shared folders once', () => {
    const graph = buildGraph(
      scriptSession([
        { user: 'Build an invoice service' },
        { assistant: 'Files: api/auth.py, api/models.py' },
        { user: 'Add the refresh tokens to our API' },
        { assistant: 'Completed: the refresh tokens.' },
      ]),
    );
    const block = buildResume(graph, { budget: 78 });
    expect(block.text).toContain('Files: api/{auth,models}.py');
    expect(block.sections.files).toEqual(['api/auth.py', 'api/models.py']);
    // The first reply changed two files: the opening request is done, the goal first among done tasks.
    expect(block.sections.done).toEqual(['invoice service', 'refresh tokens to API']);
  });

  it('names changed files by their base names at the critical tier when full paths do not fit, and in full when they do', () => {
    const paths = [
      'src/features/billing/hooks/useInvoiceTotals.ts',
      'src/features/billing/components/InvoiceTable.tsx',
      'server/routes/invoices/export.ts',
      'server/jobs/nightly/reconcile.ts',
      'docs/billing/README.md',
    ];
    const graph = buildGraph(scriptSession([{ user: 'Build an invoice service' }, { assistant: `Files: ${paths.join(', ')}` }]));
    const tight = buildResume(graph, { budget: 30 });
    expect(tight.sections.files).toEqual(expect.arrayContaining(paths));
    expect(tight.text).toContain('useInvoiceTotals.ts');
    expect(tight.text).not.toContain('src/features');
    const roomy = buildResume(graph, { tier: 'critical' });
    expect(shownFiles(roomy.text)).toEqual(expect.arrayContaining(paths));
    // Two files of one name keep their folders.
    const twins = buildGraph(scriptSession([{ user: 'Build an invoice service' }, { assistant: 'Files: api/src/features/billing/index.ts, web/src/features/billing/index.ts' }]));
    expect(shownFiles(buildResume(twins, { budget: 30 }).text)).toEqual(['api/src/features/billing/index.ts', 'web/src/features/billing/index.ts']);
  });

  it('shows choices alike in every other way in the order the session made them', () => {
    const graph = buildGraph(scriptSession([{ user: 'Build an invoice service' }, { assistant: 'Decided: Go 1.22, chi router, sqlc, goose, zerolog, testify.' }]));
    expect(buildResume(graph, { budget: 20 }).sections.decisions).toEqual(['Go 1.22', 'chi router', 'sqlc', 'goose']);
  });

  it('shows a named choice before a bare count ("3 AZs") when both cannot fit', () => {
    const graph = buildGraph(scriptSession([{ user: 'Build an invoice service' }, { assistant: 'Decided: 3 replicas, PgBouncer, 2 regions.' }]));
    const block = buildResume(graph, { budget: 12 });
    expect(block.sections.decisions).toEqual(['PgBouncer']);
  });

  it('leaves out of a task at the critical tier the list of names it was applied to', () => {
    const graph = buildGraph(
      scriptSession([
        { user: 'Build an invoice service' },
        { assistant: 'Completed: DataLoader for InvoiceLoader and CustomerLoader. Completed: prisma/schema.prisma with Invoice, Customer, Payment models.' },
      ]),
    );
    const critical = buildResume(graph, { tier: 'critical' });
    expect(critical.sections.done).toEqual(expect.arrayContaining(['DataLoader', 'prisma/schema.prisma']));
    expect(buildResume(graph, { tier: 'standard' }).sections.done).toContain('DataLoader for InvoiceLoader and CustomerLoader');
  });

  it('marks a choice done rather than naming it again among done tasks', () => {
    const graph = buildGraph(
      scriptSession([{ user: 'Build an invoice service' }, { assistant: 'Decided: DataLoader, Prisma. Completed: DataLoader for InvoiceLoader and CustomerLoader. Completed: CSV export.' }]),
    );
    const block = buildResume(graph, { tier: 'critical' });
    expect(block.text).toMatch(/^Chosen: [^\n]*DataLoader✓/m);
    expect(block.text).not.toMatch(/^Done: [^\n]*DataLoader/m);
    expect(block.sections.done).toContain('DataLoader');
    expect(block.sections.decisions).toContain('DataLoader');
    // A task that names no choice keeps its place among done work.
    expect(block.text).toMatch(/^Done: [^\n]*CSV export/m);
  });

  it('opens a section with its shortest first-hand item: the header costs the same whatever follows it', () => {
    const graph = buildGraph(
      scriptSession([
        { user: 'Build an invoice service' },
        { assistant: 'Files: src/api/invoices.ts, src/api/customers.ts, src/db/schema.ts, src/db/migrations/0001_init.sql, src/jobs/reconcile.ts, src/lib/money.ts' },
        { user: 'Add CSV export' },
        { assistant: 'Completed: CSV export.' },
        { user: "Add nightly reconciliation of every ledger entry against the payment provider's settlement reports" },
        { assistant: "Completed: nightly reconciliation of every ledger entry against the payment provider's settlement reports." },
      ]),
    );
    // The long task would take the room of three files; the short one leaves it to them.
    const block = buildResume(graph, { budget: 26 });
    expect(block.sections.done).toEqual(['invoice service', 'CSV export']);
    expect(block.sections.files).toHaveLength(5);
    // A line still lists its items most important first: the latest work before earlier work.
    expect(buildResume(graph, { tier: 'critical' }).text).toMatch(/Done: nightly reconciliation[^\n]*; CSV export/);
  });

  it('names the files changed last first when not all fit, whatever the earlier ones were referred to', () => {
    const edit = (path: string) => ({ tool: 'Edit', input: { file_path: `${SCRIPT_CWD}/${path}`, old_string: 'a', new_string: 'b' } });
    const graph = buildGraph(
      scriptSession([
        { user: 'Build an invoice service' },
        edit('src/api/invoices.ts'),
        edit('src/db/schema.ts'),
        { assistant: 'Completed: invoice API.' },
        { user: 'Round totals to cents' },
        edit('src/api/invoices.ts'),
        { assistant: 'Completed: rounding.' },
        { user: 'Add CSV export' },
        edit('src/export/csv.ts'),
        { assistant: 'Completed: CSV export.' },
      ]),
    );
    const all = buildResume(graph, { tier: 'critical' });
    expect(all.sections.files).toEqual(['src/export/csv.ts', 'src/api/invoices.ts', 'src/db/schema.ts']);
    // Whatever the budget, the files shown are the latest changed: invoices.ts was referred to
    // twice, schema.ts once, but csv.ts came last.
    const counts = new Set<number>();
    for (let budget = all.tokens; budget >= 10; budget--) {
      const shown = buildResume(graph, { budget }).sections.files;
      expect(shown, `budget ${budget}`).toEqual(all.sections.files.slice(0, shown.length));
      counts.add(shown.length);
    }
    expect([...counts]).toEqual(expect.arrayContaining([1, 2]));
  });

  it('leaves the project folder out at the critical tier: the resumed session runs in it', () => {
    const graph = buildGraph(scriptSession([{ user: 'Build an invoice service' }, { assistant: 'Completed: invoice API.' }]));
    expect(buildResume(graph, { tier: 'critical' }).text).not.toContain(SCRIPT_CWD);
    expect(buildResume(graph, { tier: 'standard' }).text).toContain(SCRIPT_CWD);
  });

  it('drops a temporal clause from a task and the count a choice applied to, at the critical tier only', () => {
    const graph = buildGraph(
      scriptSession([
        { user: 'Build an invoice service' },
        { assistant: 'Started.' },
        { user: 'Fix the OOM crash during nightly imports' },
        { assistant: 'Fixed: batch size 64 -> 16. Decided: row-level locks on 12 tables without a primary key.' },
      ]),
    );
    const critical = buildResume(graph, { tier: 'critical' });
    expect(critical.sections.done[0]).toBe('Fix OOM crash');
    expect(critical.sections.decisions).toContain('row-level locks');
    const standard = buildResume(graph, { tier: 'standard' });
    expect(standard.sections.done).toContain('Fix OOM crash during nightly imports');
    expect(standard.sections.decisions).toContain('row-level locks on 12 tables without primary key');
  });

  it('weighs a tool a report shows in use almost as a stated choice: it gets a place among done work', () => {
    const graph = buildGraph(
      scriptSession([
        { user: 'Build an invoice service' },
        { assistant: 'Completed: nightly export using pg_dump.' },
        ...['retries', 'audit log', 'rate limits', 'credit notes'].flatMap((work) => [{ user: `Add ${work}` }, { assistant: `Completed: ${work}.` }]),
      ]),
    );
    // The goal is one of the done tasks.
    const block = buildResume(graph, { budget: 26 });
    expect(block.sections.decisions).toEqual(['pg_dump']);
    expect(block.sections.done.length).toBeGreaterThanOrEqual(4);
    expect(block.tokens).toBeLessThanOrEqual(26);
  });

  it("says a goal's named choices once, on the Chosen line, at the critical tier", () => {
    const graph = buildGraph(scriptSession([{ user: 'Build a FastAPI authentication service with JWT and PostgreSQL' }, { assistant: 'Started.' }]));
    const critical = buildResume(graph, { tier: 'critical' });
    // The goal says what is made, as a task does.
    expect(critical.sections.goal).toEqual(['FastAPI authentication service']);
    expect(critical.sections.decisions.slice(0, 2)).toEqual(['JWT', 'PostgreSQL']);
    expect(buildResume(graph, { tier: 'standard' }).sections.goal).toEqual(['Build FastAPI authentication service with JWT and PostgreSQL']);
  });

  it('leaves out a choice of what to do next when the open task it made is shown', () => {
    const graph = buildGraph(scriptSession([{ user: 'Write a launch post' }, { user: 'Post did well' }, { assistant: 'Decided: video walkthrough next.' }]));
    const block = buildResume(graph, { tier: 'standard' });
    expect(block.sections.pending).toEqual(['video walkthrough']);
    expect(block.sections.decisions).toEqual([]);
  });

  it('leaves out an item that mostly repeats one shown, and a folder whose file is shown', () => {
    const graph = buildGraph(
      scriptSession([{ user: 'Build an invoice service' }, { assistant: 'Completed: CSV export of invoices. Completed: the CSV export for invoices. Files: src/export/, src/export/csv.ts' }]),
    );
    const block = buildResume(graph, { tier: 'full' });
    // The goal, done by that reply, and one of the two restatements of the export.
    expect(block.sections.done).toEqual(['Build invoice service', 'CSV export of invoices']);
    expect(block.sections.files).toEqual(['src/export/csv.ts']);
  });

  it('leaves out a clipped word for the task it names ("config" after "configuration") at the critical tier', () => {
    const graph = buildGraph(scriptSession([{ user: 'Build a billing service' }, { user: 'Add configuration' }, { assistant: 'Completed: config via environment variables.' }]));
    expect(buildResume(graph, { tier: 'critical' }).sections.done).toEqual(['configuration']);
  });

  it('is the same text for the same log', async () => {
    const file = join(SAMPLE_DIR, 'resumed.jsonl');
    const a = buildResume(buildGraph(await openSession(file)), { tier: 'full' });
    const b = buildResume(buildGraph(await openSession(file)), { tier: 'full' });
    expect(b).toEqual(a);
  });

  it('is empty for a session without a prompt', () => {
    const block = buildResume(buildGraph(scriptSession([])), { tier: 'critical' });
    expect(block).toMatchObject({ text: '', tokens: 0 });
  });
});

describe('the goal as the critical tier shows it', () => {
  it('is its first clause, never cut inside brackets', () => {
    expect(goalHead('Production down — 500 errors everywhere')).toBe('Production down');
    expect(goalHead('Add a function called multiply_numbers(a: int, b: int) -> int that multiplies two numbers')).toBe(
      'Add a function called multiply_numbers(a: int, b: int) -> int that multiplies two numbers',
    );
    expect(goalHead('Fix the parser (it drops the last row): see issue 12')).toBe('Fix the parser');
  });
});

describe('a choice as the critical tier shows it', () => {
  it('says what was chosen, not what was done with "it"', () => {
    expect(compactChoice('do it in batches of 5,000 rows')).toBe('batches of 5,000 rows');
    expect(compactChoice('Running them as separate step in deploy pipeline')).toBe('separate step in deploy pipeline');
    expect(compactChoice('run it in a Web Worker')).toBe('a Web Worker');
    // A verb that is the choice stays; only its pronoun goes.
    expect(compactChoice('split it into 3.1 Data, 3.2 Method, 3.3 Results')).toBe('split into 3.1 Data, 3.2 Method, 3.3 Results');
    expect(compactChoice('replica identity FULL on 7 tables without PK')).toBe('replica identity FULL');
    expect(compactChoice('Redis')).toBe('Redis');
    // The file it went into is on the Files line; what follows a comma is an aside, unless inside brackets.
    expect(compactChoice('cross-variant users excluded in abtest/load.py, count logged')).toBe('cross-variant users excluded');
    expect(compactChoice('resolveAgentType(ctx.AgentType, state)')).toBe('resolveAgentType(ctx.AgentType, state)');
    expect(compactChoice('Flutter 3.19, Riverpod')).toBe('Flutter 3.19, Riverpod');
  });
});

describe('a task as the critical tier shows it', () => {
  it('keeps the thing made and drops what it does to an object ("ingestion layer auto-detecting JSON/CSV")', () => {
    expect(compactTask('ingestion layer auto-detecting JSON/CSV')).toBe('ingestion layer');
    expect(compactTask('cron job cleaning temp files')).toBe('cron job');
  });

  it('drops a long purpose after a thing named in two words: "line chart for daily active users" -> "line chart"', () => {
    expect(compactTask('Add line chart for daily active users')).toBe('line chart');
    expect(compactTask('Add rate limiting for all public API routes')).toBe('rate limiting');
    // A short purpose says what the thing is; a fix keeps the case it fixed.
    for (const label of ['unit tests for stores', 'Compare DistilBERT for speed', 'WebSocket for live updates', 'fix memory leak for files over 2 GB']) {
      expect(compactTask(label), label).toBe(label);
    }
  });

  it('drops a second action on what the first made, a relative clause, and the pronoun after a verb', () => {
    expect(compactTask('add a users.last_login column and backfill it from the sessions table')).toBe('users.last_login column');
    expect(compactTask('Kubernetes job in deploy/k8s/migrate-job.yaml that runs before the rollout')).toBe('Kubernetes job');
    expect(compactTask('publish it to npm')).toBe('publish to npm');
    // A list is one thing; "that" after a short head is its object.
    expect(compactTask('Identify build, test, and lint commands')).toBe('Identify build, test, and lint commands');
    expect(compactTask('caption that states the main finding')).toBe('caption that states the main finding');
  });

  it('keeps -ing words that are the point: after a verb, or a gerund naming the work', () => {
    for (const label of [
      'fix Charts showing blank',
      'batch processing with indicatif progress bar',
      'Error handling improvements',
      'dead-letter handling for failed tasks',
      'The Alertmanager routing to Slack',
    ]) {
      expect(compactTask(label), label).toBe(label);
    }
  });
});
