// Work and choices stated indirectly, the way replies and prompts often put them: "got X working",
// "X is done now", "went with X", "X felt like the right call", proposals answered by the next
// prompt, bulleted lists under a label, questions that ask for work, acknowledgements that do not.

import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/graph/build-graph.js';
import type { GraphNode, SessionGraph } from '../../src/graph/model.js';
import { scriptSession, type ScriptStep } from './script-session.js';

function graphOf(steps: ScriptStep[]): SessionGraph {
  return buildGraph(scriptSession(steps));
}

function labels(graph: SessionGraph, type: GraphNode['type'], status?: GraphNode['status']): string[] {
  return graph.nodes.filter((n) => n.type === type && (status === undefined || n.status === status)).map((n) => n.label);
}

function decision(graph: SessionGraph, label: string): GraphNode | undefined {
  return graph.nodes.find((n) => n.type === 'DECISION' && n.label === label);
}

const GOAL: ScriptStep = { user: 'Set up background jobs for the mailer' };

describe('decisions stated indirectly', () => {
  it('reads a choice after a lead-in clause: "Since ..., I\'ll use X instead of Y"', () => {
    const graph = graphOf([GOAL, { assistant: "Since you already run Redis for caching, I'll use Celery instead of adding RabbitMQ." }]);
    expect(decision(graph, 'Celery')?.detail).toContain('not adding RabbitMQ');
  });

  it('reads "X felt like the right call", "X makes sense" and "X it is" as choices, but not "That makes sense"', () => {
    const graph = graphOf([
      GOAL,
      { assistant: 'Running migrations as a separate deploy step felt like the right call. A dropdown makes sense here.' },
      { user: 'Agreed, Loki it is. That makes sense.' },
    ]);
    expect(labels(graph, 'DECISION')).toEqual(['Running migrations as a separate deploy step', 'dropdown', 'Loki']);
  });

  it('reads "dropped Y in favour of X" and "uses X instead of Y" with Y set aside', () => {
    const graph = graphOf([GOAL, { assistant: 'I dropped the regex dependency in favour of a hand-written matcher. Authentication uses GitHub OIDC instead of long-lived keys.' }]);
    expect(decision(graph, 'hand-written matcher')?.detail).toContain('not regex dependency');
    expect(decision(graph, 'GitHub OIDC')?.detail).toContain('not long-lived keys');
  });

  it('takes a long chosen phrase as the tools it names: "went with exporting metrics via celery-exporter"', () => {
    const graph = graphOf([GOAL, { assistant: 'Flower felt like overkill, so I went with exporting queue length and task failures to Prometheus via celery-exporter.' }]);
    expect(labels(graph, 'DECISION')).toEqual(['celery-exporter']);
  });

  it('reads "I used X", "moving them into X", "X handles that" and "kept as X" as choices', () => {
    const graph = graphOf([
      GOAL,
      {
        assistant: "I used @fastify/rate-limit for the limits. I'm moving them into Pinia stores. Yes — pinia-plugin-persistedstate handles that. Prices are now kept as integer cents throughout.",
      },
    ]);
    expect(labels(graph, 'DECISION')).toEqual(['@fastify/rate-limit', 'Pinia stores', 'pinia-plugin-persistedstate', 'integer cents']);
  });

  it('reads every clause of a sentence: a setting, and a thing taken instead of another', () => {
    const graph = graphOf([GOAL, { assistant: 'Set retention to 30 days with the compactor, and logs go to an S3 bucket instead of local disk.' }]);
    expect(labels(graph, 'DECISION')).toEqual(['retention 30 days', 'S3 bucket']);
    expect(decision(graph, 'S3 bucket')?.detail).toContain('not local disk');
  });

  it('does not take "to <verb> ... rather than" for a thing chosen', () => {
    const graph = graphOf([GOAL, { assistant: 'I should run tests more often to catch issues early, rather than leaving them to the end.' }]);
    expect(labels(graph, 'DECISION')).toEqual([]);
  });

  it('does not take a choice about a pronoun: "I\'d keep them out of startup"', () => {
    const graph = graphOf([GOAL, { assistant: "I'd keep them out of startup." }]);
    expect(labels(graph, 'DECISION')).toEqual([]);
  });
});

describe('proposals and their answer', () => {
  it('makes a proposal firm when the next prompt agrees', () => {
    const graph = graphOf([GOAL, { assistant: "I'd suggest Polars rather than pandas here. OK to go ahead?" }, { user: 'Yes, sounds good' }]);
    expect(decision(graph, 'Polars')?.confidence).toBeGreaterThanOrEqual(0.85);
  });

  it('takes a proposal back when the next prompt refuses it', () => {
    const graph = graphOf([GOAL, { assistant: "I'd suggest Polars rather than pandas here." }, { user: "No, let's stay on pandas for now" }]);
    expect(decision(graph, 'Polars')).toBeUndefined();
  });

  it('makes a proposed course of action a decision only once the user agrees, one decision per action', () => {
    const proposal: ScriptStep = {
      assistant: "I'd split it into 3.1 Data, 3.2 Method, 3.3 Results, and move the calibration details into an appendix rather than leaving them inline. Does that work?",
    };
    const agreed = graphOf([GOAL, proposal, { user: 'Yes, do that' }]);
    expect(labels(agreed, 'DECISION')).toEqual(['split it into 3.1 Data, 3.2 Method, 3.3 Results', 'move the calibration details into an appendix']);
    const unanswered = graphOf([GOAL, proposal, { user: 'What about the figures?' }]);
    expect(labels(unanswered, 'DECISION')).toEqual([]);
  });

  it("keeps the user's suggestion the reply agrees with, drops the one it turns down", () => {
    const agreed = graphOf([GOAL, { assistant: 'Started.' }, { user: 'I was thinking a dropdown in the header' }, { assistant: 'A dropdown makes sense. Built it.' }]);
    expect(decision(agreed, 'dropdown in the header')?.confidence).toBeGreaterThanOrEqual(0.8);
    const refused = graphOf([GOAL, { assistant: 'Started.' }, { user: 'I was thinking a dropdown in the header' }, { assistant: "I'd rather not: a dropdown hides the options." }]);
    expect(decision(refused, 'dropdown in the header')).toBeUndefined();
  });
});

describe('work reported indirectly', () => {
  it('reads "got X working", "X is done now", "there\'s now X" and "X works" as finished work', () => {
    const graph = graphOf([GOAL, { assistant: 'Got the initial migration working. The column migration is done now. There is now a retry banner. Cart persistence works.' }]);
    expect(labels(graph, 'TASK', 'completed')).toEqual(['the initial migration', 'The column migration', 'a retry banner', 'Cart persistence']);
  });

  it('splits "Deduplication and type parsing are finished" into two pieces of work', () => {
    const graph = graphOf([GOAL, { assistant: 'Deduplication and type parsing are finished.' }]);
    expect(labels(graph, 'TASK', 'completed')).toEqual(['Deduplication', 'type parsing']);
  });

  it('reads a passive report with its instrument: "PII is scrubbed with Presidio"', () => {
    const graph = graphOf([GOAL, { assistant: 'PII is scrubbed with Presidio.' }]);
    expect(labels(graph, 'TASK', 'completed')).toEqual(['PII scrubbed with Presidio']);
    expect(labels(graph, 'DECISION')).toEqual(['Presidio']);
  });

  it('reads what is not done yet as pending: "but haven\'t run it", "isn\'t set up yet", "still missing"', () => {
    const graph = graphOf([
      GOAL,
      {
        assistant: "I wrote the backfill as a Go migration but haven't run it against staging yet. The Slack routing isn't set up yet. The checkout store tests are still missing.",
      },
    ]);
    expect(labels(graph, 'TASK', 'pending')).toEqual(['run it against staging', 'The Slack routing', 'The checkout store tests']);
  });

  it('reads each item of a list under "Remaining:" as pending work', () => {
    const graph = graphOf([GOAL, { assistant: 'Remaining:\n- move the welcome email to Celery\n- dead-letter handling\n\nEverything else is done.' }]);
    expect(labels(graph, 'TASK', 'pending')).toEqual(['move the welcome email to Celery', 'dead-letter handling']);
  });

  it('does not take a plan, a check or a condition for finished work', () => {
    const graph = graphOf([GOAL, { assistant: "Let me verify everything still works. I'll let you know when the poems are ready. Once the server is fixed, the CLI should work." }]);
    expect(labels(graph, 'TASK')).toEqual([]);
  });

  it('takes no task from narration between tool calls, only from the reply that sums up', () => {
    const graph = graphOf([
      GOAL,
      { assistant: 'The websocket connection is working now.' },
      { tool: 'Bash', input: { command: 'npm test' }, result: 'Tests: 4 passed, 4 total' },
      { assistant: 'All set.' },
    ]);
    expect(labels(graph, 'TASK')).toEqual([]);
  });
});

describe('what a prompt asks for', () => {
  it('takes no task from an acknowledgement ("Nice.") and resolves "import them" to what the sentence before names', () => {
    const graph = graphOf([GOAL, { assistant: 'Started.' }, { user: 'Nice. The German translations are in a spreadsheet. Can you import them?' }, { assistant: 'Imported all 212 keys.' }]);
    expect(labels(graph, 'TASK')).toContain('import The German translations');
    expect(labels(graph, 'TASK')).not.toContain('Nice');
  });

  it('takes a question that asks for work as a task once the reply does the work, and not otherwise', () => {
    const done = graphOf([GOAL, { assistant: 'Started.' }, { user: 'Retention?' }, { assistant: 'Set retention to 30 days with the compactor.' }]);
    expect(labels(done, 'TASK', 'completed')).toContain('Retention');
    const answered = graphOf([GOAL, { assistant: 'Started.' }, { user: 'Retention?' }, { assistant: 'It defaults to 7 days.' }]);
    expect(labels(answered, 'TASK')).toEqual([]);
  });

  it('reads "SEO folks want hreflang tags" as a request for hreflang tags', () => {
    const graph = graphOf([GOAL, { assistant: 'Started.' }, { user: 'SEO folks want hreflang tags' }, { assistant: 'hreflang alternates are done now.' }]);
    expect(labels(graph, 'TASK', 'completed')).toContain('hreflang tags');
  });

  it('reads "Cache invalidation on every deploy is slow" as a problem, not an instruction to cache', () => {
    const graph = graphOf([GOAL, { assistant: 'Started.' }, { user: 'Cache invalidation on every deploy is slow' }]);
    expect(labels(graph, 'TASK')).toEqual(['fix Cache invalidation on every deploy is slow']);
  });
});

describe('files named in prose', () => {
  it('keeps framework route segments in a path and counts a file a report of done work names as changed', () => {
    const graph = graphOf([GOAL, { assistant: 'Added `app/[locale]/layout.tsx` and `app/(marketing)/page.tsx` with the provider.' }]);
    const files = graph.nodes.filter((n) => n.type === 'FILE');
    expect(files.map((f) => [f.label, f.status])).toEqual([
      ['app/[locale]/layout.tsx', 'modified'],
      ['app/(marketing)/page.tsx', 'modified'],
    ]);
  });

  it("does not take the session's own component for a tool it adopted", () => {
    const graph = graphOf([GOAL, { assistant: 'Completed: DataTable with client-side sorting. Files: src/components/DataTable.tsx' }]);
    expect(labels(graph, 'DECISION')).toEqual([]);
  });

  it('takes the instrument, not the thing made with it, from "X using Y"', () => {
    const graph = graphOf([GOAL, { assistant: 'Completed: MailQueueWorker using bullmq. Files: src/mail/worker.ts' }]);
    expect(labels(graph, 'DECISION')).toEqual(['bullmq']);
    // A name heading a report without an instrument is still the choice.
    expect(labels(graphOf([GOAL, { assistant: 'Completed: PgBouncer for connection pooling.' }]), 'DECISION')).toEqual(['PgBouncer']);
  });

  it('takes a lone acronym before an aside for the work done, not a tool ("Completed: ETL — 3 sources")', () => {
    expect(labels(graphOf([GOAL, { assistant: 'Completed: QA — 4 flaky specs found.' }]), 'DECISION')).toEqual([]);
    expect(labels(graphOf([GOAL, { assistant: 'Completed: FAISS index for lookups.' }]), 'DECISION')).toEqual(['FAISS']);
  });

  it('does not take a function of the code ("using dropDuplicates") for a tool adopted', () => {
    expect(labels(graphOf([GOAL, { assistant: 'Completed: dedup using dropDuplicates on event ids.' }]), 'DECISION')).toEqual([]);
    expect(labels(graphOf([GOAL, { assistant: 'Completed: dedup using DuckDB on event ids.' }]), 'DECISION')).toEqual(['DuckDB']);
    // One letter before the hump is a tool's name, not a function's.
    expect(labels(graphOf([GOAL, { assistant: 'Completed: date picker using jQuery on the form.' }]), 'DECISION')).toEqual(['jQuery']);
  });

  it('does not take a name a fix found missing or broken for a tool adopted', () => {
    const graph = graphOf([GOAL, { user: 'Uploads crash on Android' }, { assistant: 'Fixed: Missing ReadMediaImages permission in AndroidManifest.xml.' }]);
    expect(labels(graph, 'DECISION')).toEqual([]);
    // The same name set up by the work is one.
    expect(labels(graphOf([GOAL, { assistant: 'Completed: upload screen with ReadMediaImages Permission.' }]), 'DECISION')).toEqual(['ReadMediaImages Permission']);
  });
});
