#!/usr/bin/env bash
# Scratch project for the `compacted` session: "csv2md", a single-module Python CLI that
# turns CSV into a markdown table. It crashes on short rows (IndexError) and does not escape
# pipe characters.
# Usage: make_compacted.sh <dir>
. "$(dirname "$0")/lib.sh"
D="$1"; new_project "$D"
mkdir -p "$D/tests" "$D/samples"
cat > "$D/README.md" <<'R'
# csv2md

    python3 csv2md.py samples/people.csv > people.md
    python3 csv2md.py -d ';' export.csv

Tests: `python3 -m unittest -v tests/test_csv2md.py`
R
cat > "$D/csv2md.py" <<'P'
"""Convert CSV to a GitHub-flavoured markdown table."""
import argparse
import csv
import sys


def to_markdown(rows):
    header, *body = rows
    width = len(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * width]
    for row in body:
        lines.append("| " + " | ".join(row[i] for i in range(width)) + " |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="csv2md", description=__doc__)
    parser.add_argument("file", nargs="?", help="CSV file (default: stdin)")
    parser.add_argument("-d", "--delimiter", default=",", help="field delimiter (default: ,)")
    args = parser.parse_args(argv)
    with (open(args.file, newline="", encoding="utf-8") if args.file else sys.stdin) as fh:
        rows = list(csv.reader(fh, delimiter=args.delimiter))
    if not rows:
        return 0
    print(to_markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
P
cat > "$D/tests/test_csv2md.py" <<'P'
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from csv2md import to_markdown  # noqa: E402


class ToMarkdownTest(unittest.TestCase):
    def test_simple_table(self):
        self.assertEqual(
            to_markdown([["name", "age"], ["Ada", "36"]]),
            "| name | age |\n|---|---|\n| Ada | 36 |",
        )

    def test_header_only(self):
        self.assertEqual(to_markdown([["a"]]), "| a |\n|---|")


if __name__ == "__main__":
    unittest.main()
P
cat > "$D/samples/people.csv" <<'C'
name,role,location
Ada Lovelace,analyst,London
Grace Hopper,admiral
Linus Torvalds,maintainer,Portland
Margaret Hamilton,lead engineer|software,Boston
C
git_init_commit "$D" "csv2md: first version"
echo "created $D"
