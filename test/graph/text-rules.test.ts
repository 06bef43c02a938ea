// The prose rules, one behaviour each, on sessions written from a script: decisions and their
// why, supersession, rejected negations and questions, instructions and problem reports as
// tasks, statuses from the reply, labels that keep their meaning, and the validator.

import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/graph/build-graph.js';
import { buildResume } from '../../src/graph/resume-block.js';
import type { GraphNode, SessionGraph } from '../../src/graph/model.js';
import { scriptSession, type ScriptStep } from './script-session.js';

function graphOf(steps: ScriptStep[]): SessionGraph {
  return buildGraph(scriptSession(steps));
}

function find(graph: SessionGraph, type: GraphNode['type'], label: string): GraphNode | undefined {
  return graph.nodes.find((n) => n.type === type && n.label === label);
}

function labels(graph: SessionGraph, type: GraphNode['type']): string[] {
  return graph.nodes.filter((n) => n.type === type).map((n) => n.label);
}

const GOAL: ScriptStep = { user: 'Build an invoice service' };

describe('decisions', () => {
  it('reads "I\'ll use X instead of Y because Z" as X, with Y set aside and Z as the why', () => {
    const graph = graphOf([GOAL, { assistant: "I'll use SQLite instead of Postgres because the service runs on one machine." }]);
    const decision = find(graph, 'DECISION', 'SQLite')!;
    expect(decision.detail).toContain('the service runs on one machine');
    expect(decision.detail).toContain('not Postgres');
  });

  it('reads a choice stated in passing: "reads from X instead of Y", "I also set X to Y", "X fits this"', () => {
    const graph = graphOf([
      GOAL,
      { assistant: 'The widget reads its data from the shared App Group container (`group.com.x`) instead of calling our API.' },
      { user: 'It shows stale numbers' },
      { assistant: 'Fixed. I also set the timeline policy to `.after(midnight)` so the day rolls over by itself, rather than refreshing every 15 minutes.' },
      { user: 'Show who is viewing' },
      { assistant: 'Phoenix.Presence fits this: each view tracks itself on the topic.' },
    ]);
    expect(labels(graph, 'DECISION')).toEqual(expect.arrayContaining(['shared App Group container', 'timeline policy .after(midnight)', 'Phoenix.Presence']));
    expect(labels(graph, 'DECISION')).not.toContain('itself');
  });

  it('takes a choice put as a question ("Shall I go with X?") once the user agrees, and not when they refuse', () => {
    const offer = { assistant: 'The alternative is a lock on the ticket. Shall I go with presence?' };
    expect(labels(graphOf([GOAL, offer, { user: 'presence, yes. Maybe a typing indicator too?' }]), 'DECISION')).toEqual(['presence']);
    expect(labels(graphOf([GOAL, offer, { user: 'No, use the lock' }]), 'DECISION')).not.toContain('presence');
  });

  it('lets "switched from X to Y" supersede X', () => {
    const graph = graphOf([GOAL, { assistant: 'We switched from Jest to Vitest.' }]);
    const [vitest, jest] = [find(graph, 'DECISION', 'Vitest')!, find(graph, 'DECISION', 'Jest')!];
    expect(graph.edges).toContainEqual({ from: vitest.id, to: jest.id, type: 'SUPERSEDES' });
  });

  it('splits a stated stack into its choices and keeps versions whole', () => {
    const graph = graphOf([GOAL, { assistant: 'Decided: Python 3.12 + FastAPI + PostgreSQL 16.' }]);
    expect(labels(graph, 'DECISION')).toEqual(['Python 3.12', 'FastAPI', 'PostgreSQL 16']);
  });

  it('takes a user\'s "use X for Y" as a decision with its purpose', () => {
    const graph = graphOf([GOAL, { assistant: 'Started.' }, { user: 'Use bcrypt for password hashing' }]);
    expect(find(graph, 'DECISION', 'bcrypt')?.detail).toBe('password hashing');
  });

  it('rejects negations and questions', () => {
    const graph = graphOf([GOAL, { assistant: "We won't use Redis here. Should we use Kafka?" }, { user: 'Should we use MongoDB?' }]);
    expect(labels(graph, 'DECISION')).toEqual([]);
  });

  it('takes a "Fixed:" line followed by "Solution:" for the cause, not a remedy chosen', () => {
    const graph = graphOf([GOAL, { user: 'Memory spike on big PDFs' }, { assistant: 'Fixed: loaded whole file before rendering. Solution: streaming renderer.' }]);
    expect(labels(graph, 'DECISION')).toEqual(['streaming renderer']);
    // Without a "Solution:" after it, the same line names the remedy.
    expect(labels(graphOf([GOAL, { user: 'Memory spike on big PDFs' }, { assistant: 'Fixed: streaming renderer.' }]), 'DECISION')).toEqual(['streaming renderer']);
  });

  it('takes only the instrument of work under way as in use, not the name it aims at', () => {
    const graph = graphOf([GOAL, { assistant: 'Working on: Play Store submission using Fastlane.' }]);
    expect(labels(graph, 'DECISION')).toEqual(['Fastlane']);
  });

  it("takes a name a request ends on after a dash for a choice, not a problem report's", () => {
    expect(labels(graphOf([{ user: 'Write a release announcement — Ghost' }, { assistant: 'Started.' }]), 'DECISION')).toEqual(['Ghost']);
    expect(labels(graphOf([{ user: 'Checkout page crashes — Safari' }, { assistant: 'Looking.' }]), 'DECISION')).toEqual([]);
  });

  it('does not take a plan without an alternative or a reason for a decision', () => {
    const graph = graphOf([GOAL, { assistant: "I'll read the config file first." }]);
    expect(labels(graph, 'DECISION')).toEqual([]);
  });
});

describe('tasks and their status', () => {
  it('turns instructions into tasks, done when the reply reports work done', () => {
    const graph = graphOf([GOAL, { assistant: 'Scaffolded.' }, { user: 'Add rate limiting to the login endpoint' }, { assistant: 'Completed: rate limiting with 5 attempts per minute.' }]);
    expect(find(graph, 'TASK', 'Add rate limiting to the login endpoint')?.status).toBe('completed');
  });

  it('keeps a task in progress when the reply says it is still being worked on', () => {
    const graph = graphOf([GOAL, { assistant: 'Scaffolded.' }, { user: 'Add refresh tokens' }, { assistant: 'Working on: refresh token rotation in api/auth.py' }]);
    expect(find(graph, 'TASK', 'Add refresh tokens')?.status).toBe('in_progress');
  });

  it('leaves an unanswered instruction pending', () => {
    const graph = graphOf([GOAL, { assistant: 'Scaffolded.' }, { user: 'Please write the deployment docs' }]);
    expect(find(graph, 'TASK', 'write the deployment docs')?.status).toBe('pending');
  });

  it('turns a problem report into a fix task and an error, both closed by "Fixed:"', () => {
    const graph = graphOf([GOAL, { assistant: 'Scaffolded.' }, { user: 'Login returns 422' }, { assistant: 'Fixed: missing email validation in LoginRequest.' }]);
    const error = find(graph, 'ERROR', 'Login returns 422')!;
    expect(error.status).toBe('completed');
    const fix = find(graph, 'TASK', 'fix Login returns 422')!;
    expect(fix.status).toBe('completed');
    expect(graph.edges).toContainEqual({ from: fix.id, to: error.id, type: 'FIXES' });
  });

  it('keeps the subject of a request for "more" of something', () => {
    const graph = graphOf([GOAL, { user: 'The pricing page needs more examples' }, { assistant: 'Completed: three examples.' }]);
    expect(labels(graph, 'TASK')).toContain('more examples in pricing page');
  });

  it('moves a status only forward', () => {
    const graph = graphOf([
      GOAL,
      { tool: 'TodoWrite', input: { todos: [{ content: 'Write the parser', status: 'completed', activeForm: 'Writing' }] } },
      { tool: 'TodoWrite', input: { todos: [{ content: 'Write the parser', status: 'pending', activeForm: 'Writing' }] } },
    ]);
    expect(find(graph, 'TASK', 'Write the parser')?.status).toBe('completed');
  });

  it('opens an error for a failed command and closes it with a green re-run of the same command', () => {
    const graph = graphOf([
      GOAL,
      { tool: 'Bash', input: { command: 'npm test' }, result: 'Exit code 1\nFAIL src/invoice.test.ts\nTests: 1 failed, 3 passed, 4 total', isError: true },
      { tool: 'Edit', input: { file_path: '/home/me/app/src/invoice.ts', old_string: 'a', new_string: 'b' }, result: 'The file has been updated successfully.' },
      { tool: 'Bash', input: { command: 'npm test' }, result: 'Tests: 4 passed, 4 total' },
    ]);
    const [test] = graph.nodes.filter((n) => n.type === 'TEST');
    expect(test).toMatchObject({ label: 'npm test', status: 'completed', detail: '4 passed' });
    const [error] = graph.nodes.filter((n) => n.type === 'ERROR');
    expect(error).toMatchObject({ label: 'npm test failed: FAIL src/invoice.test.ts', status: 'completed' });
    const file = find(graph, 'FILE', 'src/invoice.ts')!;
    expect(graph.edges).toEqual(
      expect.arrayContaining([
        { from: test.id, to: error.id, type: 'FIXES' },
        { from: file.id, to: error.id, type: 'FIXES' },
      ]),
    );
  });

  it('names a commit by its message, not the heredoc that passed it; a commit with nothing to commit is no error', () => {
    const commit = (message: string) => `git add -A && git commit -m "$(cat <<'EOF'\n${message}\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)"`;
    const graph = graphOf([
      GOAL,
      { tool: 'Bash', input: { command: commit('Add invoice totals') }, result: 'Exit code 1\nhusky - pre-commit hook exited with code 1 (error)', isError: true },
      { tool: 'Bash', input: { command: commit('Ignore coverage output') }, result: 'Exit code 1\nOn branch main\nnothing to commit, working tree clean', isError: true },
    ]);
    expect(labels(graph, 'ERROR')).toEqual(['git add -A && git commit -m "Add invoice totals": husky - pre-commit hook exited with code 1']);
  });

  it('records installed dependencies and tool versions', () => {
    const graph = graphOf([
      GOAL,
      { tool: 'Bash', input: { command: 'npm install zod@3.23.8 --save' }, result: 'added 1 package' },
      { tool: 'Bash', input: { command: 'node --version' }, result: 'v20.11.1' },
    ]);
    expect(labels(graph, 'DEPENDENCY')).toEqual(['zod@3.23.8']);
    expect(labels(graph, 'ENVIRONMENT')).toEqual(['node v20.11.1']);
  });
});

describe('what the real logs showed', () => {
  it('names a file the reply gives by its absolute path inside the project as the tools do', () => {
    const graph = graphOf([
      { user: 'Write a shell script called hello.sh' },
      { tool: 'Write', input: { file_path: '/home/me/app/hello.sh', content: 'echo hi' } },
      { assistant: 'Created `/home/me/app/hello.sh` and ran it.' },
    ]);
    expect(labels(graph, 'FILE')).toEqual(['hello.sh']);
  });

  it('takes no path for a choice ("moved to abtest/load.py"), but keeps a tool named like a file', () => {
    const graph = graphOf([
      GOAL,
      { assistant: 'Tools: clinic.js, heapdump. Found: EventEmitter listeners growing.' },
      { user: 'Make the notebook reproducible' },
      { assistant: 'Done: restart-and-run-all passes.\n- removed 63 dead cells\n- loading + cleaning moved to abtest/load.py\n- notebook imports both' },
    ]);
    expect(labels(graph, 'DECISION')).not.toContain('abtest/load.py');
    expect(labels(graph, 'DECISION')).toContain('clinic.js');
  });

  it('takes no choice from "use what you learn" or "keep it to itself"', () => {
    const graph = graphOf([{ user: 'Write a poem about curry. First search the web for adjectives. Use what you learn to craft a vivid poem.' }, { assistant: 'Here it is.' }]);
    expect(labels(graph, 'DECISION')).toEqual([]);
  });

  it('keeps no last ask that is the opening prompt: the goal says it', () => {
    expect(graphOf([{ user: 'Write a shell script called hello.sh and run it.' }, { assistant: 'Done.' }]).lastAsk).toBeNull();
    expect(graphOf([GOAL, { assistant: 'Done.' }, { user: 'Now add CSV export' }]).lastAsk).toBe('Now add CSV export');
  });

  it('takes the goal without the letter of the option it answers with, nor "me" after the verb', () => {
    expect(graphOf([{ user: "B) I'd like to add session-end hooks to both agents" }]).nodes.find((n) => n.type === 'GOAL')?.label).toBe("I'd like to add session-end hooks to both agents");
    expect(buildResume(graphOf([{ user: 'Create me .github/CODEOWNERS' }]), { tier: 'critical' }).text.split('\n')[0]).toBe('Goal: .github/CODEOWNERS');
  });
});

describe('work left for later', () => {
  const status = (graph: SessionGraph) => graph.nodes.filter((n) => n.type === 'TASK').map((n) => `${n.label}: ${n.status}`);

  it('keeps an asked task pending when the reply says it is not started', () => {
    expect(status(graphOf([GOAL, { assistant: 'Completed: invoice API.' }, { user: 'PM also wants a breakdown by country' }, { assistant: 'Not started.' }]))).toContain(
      'breakdown by country: pending',
    );
    expect(
      status(
        graphOf([
          GOAL,
          { assistant: 'Completed: invoice API.' },
          { user: 'PM also wants a breakdown by country' },
          { assistant: 'Not started.\nPending: country breakdown. It needs a correction for 14 countries.' },
        ]),
      ),
    ).toContain('country breakdown: pending');
  });

  it('reads "X isn\'t built yet", "what\'s left is X" and the user\'s "X can wait" as pending work', () => {
    const graph = graphOf([
      GOAL,
      { assistant: "Completed: invoice API. The lock screen widget isn't built yet — it needs a design. What's left is the real PyPI release: add the trusted publisher, then push the tag." },
      { user: 'Thanks. Email notifications for new comments can wait until next sprint' },
      { assistant: 'Noted.' },
    ]);
    expect(status(graph)).toEqual(expect.arrayContaining(['The lock screen widget: pending', 'the real PyPI release: pending', 'Email notifications for new comments: pending']));
    // A pronoun names nothing; a question is no statement of work left.
    expect(status(graphOf([GOAL, { assistant: "Completed: invoice API. It isn't built yet." }]))).toEqual(['invoice API: completed']);
  });
});

describe('labels keep their meaning', () => {
  it('keeps paths exact (.tsx stays .tsx, dotfiles keep their dot) and versions whole', () => {
    const graph = graphOf([GOAL, { assistant: 'Files: src/components/Chart.tsx, .github/workflows/ci.yml. Decided: Python 3.12 runtime.' }]);
    expect(labels(graph, 'FILE')).toEqual(['src/components/Chart.tsx', '.github/workflows/ci.yml']);
    expect(labels(graph, 'DECISION')).toEqual(['Python 3.12']);
  });

  it('does not take a technology for a file ("Node.js", "e.g.")', () => {
    const graph = graphOf([GOAL, { assistant: 'It runs on Node.js, e.g. with tsx.' }]);
    expect(labels(graph, 'FILE')).toEqual([]);
  });
});

describe('the validator', () => {
  it('takes a bare name prose gives as a chosen tool for the tool, not a file, unless a report of changes names it', () => {
    const graph = graphOf([GOAL, { assistant: 'Tools: clinic.js, heapdump. Files: src/app.js' }]);
    expect(labels(graph, 'FILE')).toEqual(['src/app.js']);
    expect(labels(graph, 'DECISION')).toContain('clinic.js');
    const changed = graphOf([GOAL, { assistant: 'Tools: clinic.js, heapdump. Files: clinic.js' }]);
    expect(labels(changed, 'FILE')).toEqual(['clinic.js']);
  });

  it('rejects vague tasks ("fix it") and keeps specific ones', () => {
    const graph = graphOf([GOAL, { assistant: 'Done.' }, { user: 'fix it' }, { assistant: 'Done.' }, { user: 'Add CSV export' }, { assistant: 'Done.' }]);
    expect(labels(graph, 'TASK')).toEqual(['Add CSV export']);
  });

  it('rejects a verb whose only object is a pronoun ("Clean it up") and a verdict over earlier work ("all leaks fixed")', () => {
    const graph = graphOf([
      { user: 'Our settings page keeps stale state. Clean it up' },
      { assistant: 'Completed: settings store.' },
      { user: 'Memory keeps growing' },
      { assistant: 'Completed: all leaks fixed. Added: memory alert at 1GB.' },
    ]);
    const tasks = labels(graph, 'TASK');
    expect(tasks).not.toContain('Clean it up');
    expect(tasks).not.toContain('all leaks fixed');
    expect(tasks).toEqual(expect.arrayContaining(['settings store', 'memory alert at 1GB']));
  });

  it('folds two labels of one thing into one node', () => {
    const graph = graphOf([GOAL, { assistant: 'Decided: Prisma.' }, { user: 'ok' }, { assistant: 'Decided: Prisma ORM.' }]);
    expect(labels(graph, 'DECISION')).toEqual(['Prisma']);
  });
});
