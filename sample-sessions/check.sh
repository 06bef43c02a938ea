#!/usr/bin/env bash
# Check the sample sessions: every line valid JSON (plus a per-file summary of line types and
# tools), then resume each one with the real CLI (harness.sh resume ... hi) and report how many
# messages Claude Code sent. Exit 1 on any failure.
# Usage: sample-sessions/check.sh [name ...]   (same env knobs as generate.sh)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/paths.sh
. "$HERE/scripts/paths.sh"
NAMES=("$@"); [ ${#NAMES[@]} -gt 0 ] || NAMES=(coding large-read-image subagent resumed compacted short)
mkdir -p "$WORK/check"
files=(); for n in "${NAMES[@]}"; do files+=("$HERE/$n.jsonl"); done
node "$HERE/scripts/inspect.mjs" "${files[@]}"
fail=0
for n in "${NAMES[@]}"; do
  rc=0
  "$HARNESS_DIR/harness.sh" resume "$HERE/$n.jsonl" "$WORK/check/$n.request.json" hi >"$WORK/check/$n.resume.txt" 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then echo "resume $n: FAIL rc=$rc (see $WORK/check/$n.resume.txt)"; fail=1; continue; fi
  msgs=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).messages.length)' "$WORK/check/$n.request.json")
  echo "resume $n: rc=0, request carried $msgs messages"
done
exit $fail
