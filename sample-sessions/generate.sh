#!/usr/bin/env bash
# Regenerate the sample Claude Code session logs in this folder.
#
# Each session is produced by the REAL Claude Code CLI (the project's devDependency
# @anthropic-ai/claude-code 2.1.100) running against the scripted mock Messages API of
# claude-harness: scripts/<name>.json says what the "model" answers, Claude Code really
# executes the tools in a scratch project built by scripts/make_<name>.sh, and the session
# JSONL it writes is copied here as <name>.jsonl. Side files Claude Code keeps next to a
# session (<sessionId>/subagents/*, <sessionId>/tool-results/*) are copied to <name>/.
#
# Usage: sample-sessions/generate.sh [name ...]     (default: all sessions)
#        CMV_SAMPLES_CLIENT=2.1.332 sample-sessions/generate.sh [name ...]
#        (today's native client, the devDependency claude-code-2.1.332; its sessions go to
#        sample-sessions/2.1.332/, and its own scripts are scripts/2.1.332/<name>.json when present)
# Env:
#   CMV_HARNESS_DIR   claude-harness folder (default: <repo>/../shared/tools/claude-harness)
#   HARNESS_CLI       cli.js to run (default: <repo>/node_modules/@anthropic-ai/claude-code/cli.js)
#   CMV_SAMPLES_WORK  scratch dir for projects and harness runs (default: /tmp/cmv-samples);
#                     the projects live at $CMV_SAMPLES_WORK/<project>, which is the `cwd`
#                     recorded in the sessions, so keep the default for stable output.
# Needs: bash, node >= 18, python3, git, coreutils timeout. Offline: nothing leaves 127.0.0.1.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/paths.sh
. "$HERE/scripts/paths.sh"
# Extra environment for the CLI (and so for the commands its Bash tool runs): no
# __pycache__ litter, fixed git dates so commit hashes in tool output are stable.
export HARNESS_ENV="PYTHONDONTWRITEBYTECODE=1 GIT_AUTHOR_DATE=2026-03-02T10:00:00+00:00 GIT_COMMITTER_DATE=2026-03-02T10:00:00+00:00"

[ -x "$HARNESS_DIR/harness.sh" ] || { echo "generate: harness not found at $HARNESS_DIR (set CMV_HARNESS_DIR)" >&2; exit 2; }
[ -f "$HARNESS_CLI" ] || { echo "generate: Claude Code CLI not found at $HARNESS_CLI (npm install)" >&2; exit 2; }

# name -> scratch project directory name (the project's basename shows up in `cwd`)
declare -A PROJECT=(
  [tasks]=todo-cli
  [coding]=tally
  [large-read-image]=sensorlog
  [subagent]=webhook-relay
  [resumed]=semver-lite
  [compacted]=csv2md
  [short]=retry-kit
)
ALL=(coding large-read-image subagent resumed compacted short)
CLIENT="${CMV_SAMPLES_CLIENT:-2.1.100}"
OUT="$HERE"
if [ "$CLIENT" != "2.1.100" ]; then
  OUT="$HERE/$CLIENT"
  ALL=(tasks compacted large-read-image subagent)
  export HARNESS_CLI="${CMV_SAMPLES_CLI:-$REPO/node_modules/claude-code-$CLIENT/bin/claude.exe}"
  mkdir -p "$OUT"
fi
NAMES=("$@"); [ ${#NAMES[@]} -gt 0 ] || NAMES=("${ALL[@]}")

mkdir -p "$WORK" "$HARNESS_RUNS_DIR"
for name in "${NAMES[@]}"; do
  proj="${PROJECT[$name]:-}"; [ -n "$proj" ] || { echo "generate: unknown session '$name' (known: ${ALL[*]})" >&2; exit 2; }
  pdir="$WORK/$proj"
  rm -rf "$pdir"
  "$HERE/scripts/make_$name.sh" "$pdir" >/dev/null
  script="$HERE/scripts/$name.json"; [ -f "$HERE/scripts/$CLIENT/$name.json" ] && script="$HERE/scripts/$CLIENT/$name.json"
  node "$HERE/scripts/prepare-script.mjs" "$script" "$WORK/$name.script.json" "$name" "$CLIENT" 2>/dev/null
  echo "== $name: project $pdir" >&2
  rd="$("$HARNESS_DIR/harness.sh" generate "$WORK/$name.script.json" "$pdir" "$WORK/$name.jsonl" | tail -n 1)"
  sid="$(node -e 'for (const l of require("fs").readFileSync(process.argv[1],"utf8").split("\n")) { try { const d = JSON.parse(l); if (d.sessionId) { console.log(d.sessionId); break } } catch {} }' "$WORK/$name.jsonl")"
  cp "$WORK/$name.jsonl" "$OUT/$name.jsonl"
  rm -rf "${OUT:?}/$name"
  side="$(dirname "$(ls "$rd"/home/.claude/projects/*/"$sid.jsonl")")/$sid"
  if [ -d "$side" ]; then
    mkdir -p "$OUT/$name"
    for sub in subagents tool-results; do if [ -d "$side/$sub" ]; then cp -r "$side/$sub" "$OUT/$name/"; fi; done
    rmdir "$OUT/$name" 2>/dev/null || true
  fi
  chmod a+r "$OUT/$name.jsonl"   # the CLI writes 0600 files
  if [ -d "$OUT/$name" ]; then chmod -R a+rX "$OUT/$name"; fi
  echo "== $name: $(wc -l <"$OUT/$name.jsonl") lines, $(wc -c <"$OUT/$name.jsonl") bytes -> ${OUT#"$REPO"/}/$name.jsonl$( [ -d "$OUT/$name" ] && echo " + $name/ ($(find "$OUT/$name" -type f | wc -l) files)")" >&2
done
