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
  [coding]=tally
  [large-read-image]=sensorlog
  [subagent]=webhook-relay
  [resumed]=semver-lite
  [compacted]=csv2md
  [short]=retry-kit
)
ALL=(coding large-read-image subagent resumed compacted short)
NAMES=("$@"); [ ${#NAMES[@]} -gt 0 ] || NAMES=("${ALL[@]}")

mkdir -p "$WORK" "$HARNESS_RUNS_DIR"
for name in "${NAMES[@]}"; do
  proj="${PROJECT[$name]:-}"; [ -n "$proj" ] || { echo "generate: unknown session '$name' (known: ${ALL[*]})" >&2; exit 2; }
  pdir="$WORK/$proj"
  rm -rf "$pdir"
  "$HERE/scripts/make_$name.sh" "$pdir" >/dev/null
  node "$HERE/scripts/prepare-script.mjs" "$HERE/scripts/$name.json" "$WORK/$name.script.json" "$name" 2>/dev/null
  echo "== $name: project $pdir" >&2
  rd="$("$HARNESS_DIR/harness.sh" generate "$WORK/$name.script.json" "$pdir" "$WORK/$name.jsonl" | tail -n 1)"
  sid="$(node -e 'for (const l of require("fs").readFileSync(process.argv[1],"utf8").split("\n")) { try { const d = JSON.parse(l); if (d.sessionId) { console.log(d.sessionId); break } } catch {} }' "$WORK/$name.jsonl")"
  cp "$WORK/$name.jsonl" "$HERE/$name.jsonl"
  rm -rf "${HERE:?}/$name"
  side="$(dirname "$(ls "$rd"/home/.claude/projects/*/"$sid.jsonl")")/$sid"
  if [ -d "$side" ]; then
    mkdir -p "$HERE/$name"
    for sub in subagents tool-results; do if [ -d "$side/$sub" ]; then cp -r "$side/$sub" "$HERE/$name/"; fi; done
    rmdir "$HERE/$name" 2>/dev/null || true
  fi
  chmod a+r "$HERE/$name.jsonl"   # the CLI writes 0600 files
  if [ -d "$HERE/$name" ]; then chmod -R a+rX "$HERE/$name"; fi
  echo "== $name: $(wc -l <"$HERE/$name.jsonl") lines, $(wc -c <"$HERE/$name.jsonl") bytes -> sample-sessions/$name.jsonl$( [ -d "$HERE/$name" ] && echo " + $name/ ($(find "$HERE/$name" -type f | wc -l) files)")" >&2
done
