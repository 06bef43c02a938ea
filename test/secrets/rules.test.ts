// The rule table (src/secrets/rules.ts) is data: each entry's own examples are its tests. A `yes`
// example, its holes filled with random characters, loses every random part; a `no` example comes
// out unchanged. Also: code and text that only look like secrets stay as they are.

import { describe, expect, it } from 'vitest';
import { SECRET_RULES } from '../../src/secrets/rules.js';
import { findSecrets, redactWith } from '../../src/secrets/scan.js';
import { redactText } from '../../src/store/redact.js';
import { redactSecrets, redactValue } from '../../src/graph/redact.js';
import { leaks, randomString, seeded, type Charset } from '../helpers/planted-secrets.js';

const mark = (kind: string) => `[REDACTED:${kind}]`;

/** A template filled, with the random parts it got. */
function fill(template: string, seed: number): { text: string; parts: string[] } {
  const r = seeded(seed);
  const parts: string[] = [];
  const text = template.replace(/\{(\w+):(\d+)\}/g, (_, set: string, n: string) => {
    const part = randomString(r, Number(n), set as Charset);
    parts.push(part);
    return part;
  });
  return { text, parts: parts.filter((p) => p.length >= 8) };
}

describe('secret rules', () => {
  it('have unique ids, a reason, keywords in lower case, global patterns and examples both ways', () => {
    const ids = SECRET_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of SECRET_RULES) {
      expect(rule.why.length, rule.id).toBeGreaterThan(10);
      expect(rule.pattern.flags, rule.id).toContain('g');
      for (const k of rule.keywords) expect(k, rule.id).toBe(k.toLowerCase());
      expect(rule.examples.yes.length, rule.id).toBeGreaterThan(0);
    }
    expect(SECRET_RULES.filter((r) => r.examples.no.length > 0).length).toBeGreaterThan(15);
  });

  for (const rule of SECRET_RULES) {
    it(`${rule.id}: redacts its examples and leaves its counter-examples`, () => {
      for (const [i, template] of rule.examples.yes.entries()) {
        for (const seed of [1, 2, 3]) {
          const { text, parts } = fill(template, seed * 100 + i);
          const out = redactWith(text, mark);
          expect(out.report.total, `${rule.id}: ${text}`).toBeGreaterThan(0);
          expect(leaks(out.text, parts), `${rule.id} leaks: ${out.text}`).toBe(false);
        }
      }
      for (const template of rule.examples.no) {
        const { text } = fill(template, 7);
        expect(redactWith(text, mark).text, rule.id).toBe(text);
      }
    });
  }
});

// Code and text from real sessions that name credentials without holding one.
const NEGATIVES = [
  'this.socket = io(this.options.serverUrl, { auth: { token: this.options.authToken }, path: this.options.socketPath });',
  'const token = authHeader.substring(7);',
  'const token = url.searchParams.get("token") || info.req.headers["x-token"];',
  'const apiKey = process.env.OPENAI_API_KEY;',
  'api_key: anthropic_api_key()',
  'CHAT_STATS_TOKEN: "${CHAT_STATS_TOKEN:-}"',
  '      password: "{{.Env.MACOS_SIGN_PASSWORD}}"',
  'KEYCHAIN_PASSWORD=$(openssl rand -hex 20)',
  'private credentials: AuthCredentials | null = null;',
  'export function authChallenge(secret: Uint8Array) {',
  'this.secretKey = decodeBase64(secretKeyBase64url, "base64url");',
  'const wsUrl = `${wsBaseUrl}/ws?token=${encodeURIComponent(token)}`;',
  'DATABASE_URL=postgresql://postgres:postgres@localhost:5432/handy',
  '--- PASS: TestParseLogLevel/WARN_lowercase (0.00s)',
  '--- PASS: TestInit_RejectsInvalidSessionIDs/path_traversal_with_backslash (0.00s)',
  'Token: [dotenv@17.2.0] injecting env (2) from .env',
  'Connecting with token: eyJhbGciOiJFZERTQSJ9...',
  'password: string;',
  'token?: string | undefined',
  '"max_tokens": 4096, "input_tokens": 12, "cache_read_input_tokens": 0',
  'run: npm publish --access public\n  env:\n    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}',
  'dotnet nuget push ./out/*.nupkg --api-key ${{secrets.NUGET_API_KEY}} --source https://api.nuget.org/v3/index.json',
  'xcrun notarytool submit app.zip --apple-id "$APPLE_ID" --password "$APPLE_ID_PASSWORD"',
  'publicKey: tokenGenerator.publicKey',
  'const publicKey = privacyKit.decodeBase64(request.body.publicKey);',
  'SourceRefTrailerKey = "Entire-Source-Ref"',
  'const processKey = capturedSessionId || sessionId || Date.now();',
  'telemetryCacheKey=k0.CACHE_KEY+Sr.CACHE_KEY_SEPARATOR+q.clientId',
  'q.password=K.url.password||void 0,',
  'return _.username===q.auth.username&&_.password===q.auth.password',
  'refreshToken:P.refresh_token??f?.refreshToken,expiresAt:Date.now()',
  'pwd:"Get-Location",gl:"Get-Location"',
  'commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39\nAuthor: Dev <dev@example.com>',
  '"integrity": "sha512-Zx9vQ2mN8pL4kR7tY1wE5uI3oP6aS0dF2gH8jK4lZx9vQ2mN8pL4kR7tY1wE5uI3oP6aS0dF2gH8jK4lZw=="',
  'sessionId: 5c1e0000-0000-4000-8000-000000000001',
  'The sk-learn docs; task-management-system-version-two; see ./src/auth/token.ts and the password field.',
  'Bearer authentication is used for every request; the Basic scheme is refused.',
  'Authorization: `Bearer ${token}`',
  'api_key=your_api_key_here',
  'OPENAI_API_KEY=sk-...',
  'token_file: /run/secrets/github-token',
  "queryKey: ['todos', id]",
  'const cacheKey = `${userId}:${page}`;',
  '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END PUBLIC KEY-----',
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl dev@laptop',
];

describe('what only looks like a secret', () => {
  it.each(NEGATIVES.map((n) => [n.slice(0, 60), n]))('stays as it is: %s', (_, text) => {
    expect(findSecrets(text).map((f) => `${f.rule.id}: ${text.slice(f.start, f.end)}`)).toEqual([]);
    // The same in a log line, and in the graph.
    const line = JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text }] } });
    expect(redactText(line).text).toBe(line);
    expect(redactSecrets(text)).toBe(text);
  });

  it('judges a field of a tool input by its name, and leaves fields that only name a credential', () => {
    const r = seeded(5);
    const secret = randomString(r, 24, 'an');
    const input = { password: `x${secret}`, apiKey: secret, token: 'this.options.authToken', tokenCount: 4096, description: 'rotate the api key' };
    const graph = redactValue(input) as Record<string, unknown>;
    expect(graph).toEqual({ ...input, password: '[REDACTED]', apiKey: '[REDACTED]' });
    const line = JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', name: 'mcp__x__y', input }] } });
    const out = JSON.parse(redactText(line).text).message.content[0].input;
    expect(out).toEqual({ ...input, password: '[REDACTED:password]', apiKey: '[REDACTED:credential]' });
  });
});
