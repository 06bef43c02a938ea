import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entropy, looksSecret, redactText } from '../../src/store/redact.js';
import { SAMPLE_DIR } from '../helpers/corpus.js';

/** A JSONL line as Claude Code writes it, holding `text` in a user message. */
function line(text: string): string {
  return JSON.stringify({ type: 'user', message: { role: 'user', content: text }, uuid: 'u1' });
}

function redactedContent(text: string): { content: string; kinds: string[] } {
  const { text: out, report } = redactText(line(text));
  // The line stays one JSON record: redaction never breaks a log.
  const record = JSON.parse(out) as { message: { content: string } };
  return { content: record.message.content, kinds: Object.keys(report.byKind) };
}

// Built at run time, so this file holds no string a secret scanner would flag.
const rand = (n: number, alphabet = 'AbCdEfGhJkLmNpQrStUvWxYz0123456789') => Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');
const SECRETS: [string, string][] = [
  ['anthropic-key', `sk-ant-api03-${rand(40)}`],
  ['openai-key', `sk-proj-${rand(48)}`],
  ['openai-key', `sk-${rand(48)}`],
  ['aws-access-key', `AKIA${rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`],
  ['github-token', `ghp_${rand(36)}`],
  ['github-token', `github_pat_${rand(22)}_${rand(59)}`],
  ['slack-token', `xoxb-${rand(11, '0123456789')}-${rand(12, '0123456789')}-${rand(24)}`],
  ['google-api-key', `AIza${rand(35)}`],
  ['jwt', `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${rand(43)}`],
];

describe('redactText', () => {
  for (const [kind, secret] of SECRETS) {
    it(`redacts a ${kind} and says so`, () => {
      const { content, kinds } = redactedContent(`here it is: ${secret} — use it`);
      expect(content).not.toContain(secret);
      expect(content).toContain(`[REDACTED:${kind}]`);
      expect(content).toContain('here it is:');
      expect(kinds).toEqual([kind]);
    });
  }

  it('redacts a private key block, across escaped newlines in the JSON line', () => {
    const key = ['-----BEGIN RSA PRIVATE KEY-----', rand(64), rand(64), '-----END RSA PRIVATE KEY-----'].join('\n');
    const { content, kinds } = redactedContent(`cat id_rsa:\n${key}\ndone`);
    expect(content).toBe('cat id_rsa:\n[REDACTED:private-key]\ndone');
    expect(kinds).toEqual(['private-key']);
  });

  it('redacts the password of a URL and tokens in its query, keeping the rest', () => {
    const { content } = redactedContent(`git clone https://deploy:${rand(20)}@github.com/a/b.git and curl "https://api.x.io/v1?access_token=${rand(30)}&page=2"`);
    expect(content).toContain('https://deploy:[REDACTED:url-credentials]@github.com/a/b.git');
    expect(content).toContain('?access_token=[REDACTED:url-token]&page=2');
  });

  it('redacts password= assignments, in plain text, JSON and escaped JSON', () => {
    const { content } = redactedContent(`DB_PASSWORD=s3cr3t-Pa55 and {"password": "hunter2!x"} and --password 'x'`);
    expect(content).toContain('DB_PASSWORD=[REDACTED:password]');
    expect(content).toContain('"password": "[REDACTED:password]"');
    expect(content).not.toContain('hunter2');
    // A tool input holding a real JSON key (not escaped inside a string).
    const raw = JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', input: { password: 'correct-horse-9' } }] } });
    const out = redactText(raw).text;
    expect(JSON.parse(out).message.content[0].input.password).toBe('[REDACTED:password]');
  });

  it('redacts high-entropy values in credential positions, not ordinary ones', () => {
    const { content } = redactedContent(`export STRIPE_API_KEY=${rand(32)}\nAuthorization: Bearer ${rand(40)}\ntoken: placeholder\napi_key=your_api_key`);
    expect(content).toContain('STRIPE_API_KEY=[REDACTED:credential]');
    expect(content).toContain('Bearer [REDACTED:bearer-token]');
    expect(content).toContain('token: placeholder');
    expect(content).toContain('api_key=your_api_key');
  });

  it('leaves ordinary session text alone', () => {
    const text = 'The sk-learn docs say task-management-system-version-two is fine; see ./src/auth/token.ts and the password field in the form.';
    const { content, kinds } = redactedContent(text);
    expect(content).toBe(text);
    expect(kinds).toEqual([]);
  });

  it('keeps every line of a real session valid JSON, and changes nothing where nothing is secret', () => {
    const data = readFileSync(join(SAMPLE_DIR, 'coding.jsonl'), 'utf8');
    const { text, report } = redactText(data);
    for (const l of text.split('\n').filter(Boolean)) expect(() => JSON.parse(l)).not.toThrow();
    if (report.total === 0) expect(text).toBe(data);
    const planted = data.replace('"content":"', `"content":"key sk-ant-api03-${rand(40)} `);
    const again = redactText(planted);
    expect(again.report.byKind['anthropic-key']).toBe(1);
    for (const l of again.text.split('\n').filter(Boolean)) expect(() => JSON.parse(l)).not.toThrow();
  });

  it('is idempotent: redacting redacted text finds nothing more', () => {
    const once = redactText(line(SECRETS.map(([, s]) => s).join(' ') + ` password=abcd1234`));
    const twice = redactText(once.text);
    expect(twice.report.total).toBe(0);
    expect(twice.text).toBe(once.text);
  });
});

describe('looksSecret', () => {
  it('tells random strings from words, paths and placeholders', () => {
    expect(entropy('aaaa')).toBe(0);
    expect(looksSecret(rand(32))).toBe(true);
    expect(looksSecret('my_database_name')).toBe(false);
    expect(looksSecret('/usr/local/bin/tool')).toBe(false);
    expect(looksSecret('${API_TOKEN}')).toBe(false);
    expect(looksSecret('<your-token-here>')).toBe(false);
  });
});
