#!/usr/bin/env bash
# Scratch project for the `tasks` session (client 2.1.332): "todo-cli", a small Python to-do list
# whose `done` command marks the wrong item once ids have gaps.
# Usage: make_tasks.sh <dir>
. "$(dirname "$0")/lib.sh"
D="$1"; new_project "$D"
mkdir -p "$D/tests"
cat > "$D/todo.py" <<'PY'
"""A tiny to-do list kept in a JSON file."""
import json
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return []


def add(items, text):
    next_id = max((i["id"] for i in items), default=0) + 1
    items.append({"id": next_id, "text": text, "done": False})
    return next_id


def remove(items, item_id):
    items[:] = [i for i in items if i["id"] != item_id]


def mark_done(items, item_id):
    items[item_id - 1]["done"] = True


def listing(items):
    return [f"[{'x' if i['done'] else ' '}] {i['id']}: {i['text']}" for i in items]


if __name__ == "__main__":
    print("\n".join(listing(load(sys.argv[1]))))
PY
cat > "$D/tests/test_todo.py" <<'PY'
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import todo  # noqa: E402


class TodoTest(unittest.TestCase):
    def test_add_numbers_items(self):
        items = []
        self.assertEqual(todo.add(items, "a"), 1)
        self.assertEqual(todo.add(items, "b"), 2)


if __name__ == "__main__":
    unittest.main()
PY
git_init_commit "$D" "todo-cli: first version"
echo "created $D"
