# Where the sample-session scripts find the harness, the Claude Code CLI and their scratch space
# (sourced by generate.sh and check.sh, after they set HERE to the sample-sessions folder).
REPO="$(cd "$HERE/.." && pwd)"
HARNESS_DIR="${CMV_HARNESS_DIR:-$REPO/../shared/tools/claude-harness}"
export HARNESS_CLI="${HARNESS_CLI:-$REPO/node_modules/@anthropic-ai/claude-code/cli.js}"
WORK="${CMV_SAMPLES_WORK:-/tmp/cmv-samples}"
export HARNESS_RUNS_DIR="${HARNESS_RUNS_DIR:-$WORK/runs}"
