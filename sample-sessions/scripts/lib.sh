# Shared helpers for the make_*.sh scratch-project builders (sourced, not executed).
# Every builder is deterministic: fixed file contents, fixed git identity and dates.
set -euo pipefail
export GIT_AUTHOR_NAME="Sam Developer" GIT_AUTHOR_EMAIL="sam@example.com"
export GIT_COMMITTER_NAME="Sam Developer" GIT_COMMITTER_EMAIL="sam@example.com"
export GIT_AUTHOR_DATE="2026-03-02T09:00:00+00:00" GIT_COMMITTER_DATE="2026-03-02T09:00:00+00:00"

new_project() { # <dir>
  [ -e "$1" ] && { echo "refusing: $1 exists" >&2; exit 1; }
  mkdir -p "$1"
}

git_init_commit() { # <dir> <message>   (also pins every file's mtime, which `ls -l` output shows)
  find "$1" -exec touch -h -d "2026-03-02T09:00:00Z" {} +
  ( cd "$1" && git init -q -b main \
      && git config user.name "$GIT_AUTHOR_NAME" && git config user.email "$GIT_AUTHOR_EMAIL" \
      && git config commit.gpgsign false \
      && git add -A && git commit -qm "$2" )
}
