#!/usr/bin/env bash
# Scratch project for the `short` session: "retry-kit", one small JS module with a retry
# helper (exponential backoff with full jitter and a cap).
# Usage: make_short.sh <dir>
. "$(dirname "$0")/lib.sh"
D="$1"; new_project "$D"
mkdir -p "$D/src"
cat > "$D/package.json" <<'J'
{ "name": "retry-kit", "version": "1.1.0", "type": "module", "exports": "./src/retry.js" }
J
cat > "$D/src/retry.js" <<'JS'
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Call `fn` until it resolves, at most `retries + 1` times.
 * Delays use exponential backoff with full jitter, capped at `maxDelayMs`.
 */
export async function retry(fn, { retries = 4, baseDelayMs = 200, maxDelayMs = 5000, shouldRetry = () => true } = {}) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= retries || !shouldRetry(err)) throw err;
      const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
      await sleep(Math.random() * ceiling);
    }
  }
}
JS
git_init_commit "$D" "retry-kit 1.1.0"
echo "created $D"
