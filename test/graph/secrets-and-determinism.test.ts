// Secrets never enter the graph, and the same log always gives the same graph, byte for byte.

import { describe, expect, it } from 'vitest';
import { basename } from 'node:path';
import { openSession } from '../../src/session/session.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { redactSecrets } from '../../src/graph/redact.js';
import { HAS_CORPUS, corpusFiles, sampleFiles } from '../helpers/corpus.js';
import { scriptSession } from './script-session.js';

const SECRETS = {
  anthropic: 'sk-ant-api03-Zx9vQ2mN8pL4kR7tY1wE5uI3oP6aS0dF2gH8jK4lZ',
  github: 'ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78',
  aws: 'AKIAIOSFODNN7EXAMPLE',
  password: 'hunter2-Sup3rS3cret!',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
};

describe('secrets', () => {
  it('are redacted in every place a session can carry them', () => {
    const session = scriptSession([
      { user: `Deploy the API with ANTHROPIC_API_KEY=${SECRETS.anthropic} and use Redis for caching` },
      { assistant: `Decided: Redis for caching. Found: the token ${SECRETS.github} in .env — rotated it.` },
      {
        tool: 'Bash',
        input: { command: `export AWS_ACCESS_KEY_ID=${SECRETS.aws} && DB_PASSWORD=${SECRETS.password} npm run deploy` },
        result: `Exit code 1\nError: auth failed for Bearer ${SECRETS.jwt}`,
        isError: true,
      },
      { tool: 'Write', input: { file_path: '/home/me/app/.env', content: `API_KEY=${SECRETS.anthropic}\n` }, result: 'File created successfully' },
    ]);
    const json = JSON.stringify(buildGraph(session));
    for (const [kind, secret] of Object.entries(SECRETS)) expect(json, kind).not.toContain(secret);
    expect(json).toContain('[REDACTED]');
    // The facts around them are still there.
    expect(json).toContain('Redis');
    expect(json).toContain('.env');
  });

  it('leaves ordinary prose and code alone', () => {
    const text = 'The refresh token rotation uses max_tokens: 4096 and password hashing with bcrypt; see src/auth/token.ts.';
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('determinism', () => {
  const files = [...sampleFiles(), ...(HAS_CORPUS ? corpusFiles() : [])];
  it.each(files.map((f) => [basename(f), f]))('%s gives a byte-identical graph when read twice', async (_, file) => {
    const first = JSON.stringify(buildGraph(await openSession(file)));
    const second = JSON.stringify(buildGraph(await openSession(file)));
    expect(second).toBe(first);
    const graph = JSON.parse(first);
    const ids = graph.nodes.map((n: { id: string }) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const edge of graph.edges) {
      expect(ids).toContain(edge.from);
      expect(ids).toContain(edge.to);
    }
  });
});
