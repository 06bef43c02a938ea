#!/usr/bin/env bash
# Scratch project for the `subagent` session: "webhook-relay", a small Node.js service that
# reads its configuration from environment variables in several places (one of them bypasses
# the central config module, and the README documents only two of the six variables).
# Usage: make_subagent.sh <dir>
. "$(dirname "$0")/lib.sh"
D="$1"; new_project "$D"
mkdir -p "$D/src" "$D/test" "$D/docs"
cat > "$D/package.json" <<'J'
{
  "name": "webhook-relay",
  "version": "0.3.1",
  "private": true,
  "type": "module",
  "main": "src/server.js",
  "scripts": { "start": "node src/server.js", "test": "node --test test/" }
}
J
cat > "$D/README.md" <<'R'
# webhook-relay

Receives signed webhooks and forwards them to an upstream service with retries.

## Running

    PORT=8080 UPSTREAM_URL=https://hooks.internal.example/ingest npm start

## Development

    npm test
R
cat > "$D/src/config.js" <<'JS'
// Central configuration. Everything should be read here.
const int = (value, fallback) => (value === undefined || value === '' ? fallback : Number.parseInt(value, 10));

export function loadConfig(env = process.env) {
  if (!env.UPSTREAM_URL) throw new Error('UPSTREAM_URL is required');
  return {
    port: int(env.PORT, 8080),
    upstreamUrl: env.UPSTREAM_URL,
    webhookSecret: env.WEBHOOK_SECRET ?? null,
    retryLimit: int(env.RETRY_LIMIT, 3),
  };
}
JS
cat > "$D/src/log.js" <<'JS'
const LEVELS = ['debug', 'info', 'warn', 'error'];
const threshold = LEVELS.indexOf(process.env.LOG_LEVEL ?? 'info');

export function log(level, message, fields = {}) {
  if (LEVELS.indexOf(level) < threshold) return;
  console.log(JSON.stringify({ level, message, ...fields, ts: new Date().toISOString() }));
}
JS
cat > "$D/src/relay.js" <<'JS'
import { log } from './log.js';

export async function relay(config, body, headers) {
  const timeoutMs = Number(process.env.UPSTREAM_TIMEOUT_MS || 5000);
  for (let attempt = 1; attempt <= config.retryLimit; attempt++) {
    try {
      const res = await fetch(config.upstreamUrl, {
        method: 'POST',
        body,
        headers: { 'content-type': headers['content-type'] ?? 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (res.ok) return res.status;
      log('warn', 'upstream rejected webhook', { status: res.status, attempt });
    } catch (err) {
      log('warn', 'upstream request failed', { error: String(err), attempt });
    }
  }
  throw new Error(`giving up after ${config.retryLimit} attempts`);
}
JS
cat > "$D/src/server.js" <<'JS'
import http from 'node:http';
import crypto from 'node:crypto';
import { loadConfig } from './config.js';
import { relay } from './relay.js';
import { log } from './log.js';

const config = loadConfig();

function verify(secret, body, signature) {
  if (!secret) return true;
  const expected = crypto.createHmac('sha256', secret).update(body).digest('hex');
  return signature === `sha256=${expected}`;
}

http.createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = Buffer.concat(chunks);
  if (!verify(config.webhookSecret, body, req.headers['x-signature'])) {
    res.writeHead(401).end();
    return;
  }
  try {
    res.writeHead(await relay(config, body, req.headers)).end();
  } catch (err) {
    log('error', 'relay failed', { error: String(err) });
    res.writeHead(502).end();
  }
}).listen(config.port, process.env.HOST ?? '0.0.0.0', () => log('info', 'listening', { port: config.port }));
JS
cat > "$D/test/config.test.js" <<'JS'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../src/config.js';

test('defaults', () => {
  const c = loadConfig({ UPSTREAM_URL: 'http://u' });
  assert.equal(c.port, 8080);
  assert.equal(c.retryLimit, 3);
  assert.equal(c.webhookSecret, null);
});

test('requires UPSTREAM_URL', () => {
  assert.throws(() => loadConfig({}), /UPSTREAM_URL/);
});
JS
: > "$D/docs/.gitkeep"
git_init_commit "$D" "webhook-relay 0.3.1"
echo "created $D"
