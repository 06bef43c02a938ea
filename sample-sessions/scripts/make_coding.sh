#!/usr/bin/env bash
# Scratch project for the `coding` session: "tally", a tiny Python expense-report library
# with two problems: expenses on the last day of a month are dropped (half-open range check
# against an inclusive end date) and money is summed as float.
# Usage: make_coding.sh <dir>
. "$(dirname "$0")/lib.sh"
D="$1"; new_project "$D"
mkdir -p "$D/tally" "$D/tests" "$D/data"
cat > "$D/README.md" <<'R'
# tally

Monthly expense reports from a CSV export.

    python3 -m tally data/expenses.csv 2026 1

Run the tests with `python3 -m unittest discover -s tests -v`.
R
cat > "$D/tally/__init__.py" <<'P'
"""tally: monthly expense reports from CSV exports."""

from .model import Expense, load_expenses
from .report import monthly_totals, month_bounds, format_amount

__all__ = ["Expense", "load_expenses", "monthly_totals", "month_bounds", "format_amount"]
P
cat > "$D/tally/model.py" <<'P'
import csv
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Expense:
    day: date
    category: str
    amount: float
    note: str = ""


def parse_row(row):
    return Expense(
        day=date.fromisoformat(row["date"]),
        category=row["category"].strip().lower(),
        amount=float(row["amount"]),
        note=row.get("note", "").strip(),
    )


def load_expenses(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return [parse_row(row) for row in csv.DictReader(fh)]
P
cat > "$D/tally/report.py" <<'P'
import calendar
from collections import defaultdict
from datetime import date


def month_bounds(year, month):
    """Return (first_day, last_day) of the month, both inclusive."""
    last = calendar.monthrange(year, month)[1]
    return date(year, month, 1), date(year, month, last)


def monthly_totals(expenses, year, month):
    first, last = month_bounds(year, month)
    totals = defaultdict(float)
    for e in expenses:
        if first <= e.day < last:
            totals[e.category] += e.amount
    return dict(sorted(totals.items()))


def format_amount(value):
    return f"{value:,.2f}"


def render(expenses, year, month):
    first, last = month_bounds(year, month)
    lines = [f"Expenses {first:%d %b} - {last:%d %b %Y}"]
    totals = monthly_totals(expenses, year, month)
    for category, amount in totals.items():
        lines.append(f"  {category:<12} {format_amount(amount):>10}")
    lines.append(f"  {'total':<12} {format_amount(sum(totals.values())):>10}")
    return "\n".join(lines)
P
cat > "$D/tally/__main__.py" <<'P'
import sys

from .model import load_expenses
from .report import render


def main(argv):
    if len(argv) != 3:
        print("usage: python3 -m tally <file.csv> <year> <month>", file=sys.stderr)
        return 2
    path, year, month = argv[0], int(argv[1]), int(argv[2])
    print(render(load_expenses(path), year, month))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
P
cat > "$D/tests/test_report.py" <<'P'
import os
import sys
import unittest
from datetime import date

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tally.model import Expense  # noqa: E402
from tally.report import month_bounds, monthly_totals  # noqa: E402


def exp(day, category, amount):
    return Expense(day=date.fromisoformat(day), category=category, amount=amount)


class MonthBoundsTest(unittest.TestCase):
    def test_january(self):
        self.assertEqual(month_bounds(2026, 1), (date(2026, 1, 1), date(2026, 1, 31)))

    def test_leap_february(self):
        self.assertEqual(month_bounds(2024, 2)[1], date(2024, 2, 29))


class MonthlyTotalsTest(unittest.TestCase):
    def test_groups_by_category(self):
        items = [exp("2026-01-03", "food", 12.5), exp("2026-01-09", "food", 7.5),
                 exp("2026-01-10", "travel", 40.0), exp("2026-02-01", "food", 99.0)]
        self.assertEqual(monthly_totals(items, 2026, 1), {"food": 20.0, "travel": 40.0})


if __name__ == "__main__":
    unittest.main()
P
cat > "$D/data/expenses.csv" <<'C'
date,category,amount,note
2026-01-02,food,23.40,groceries
2026-01-03,travel,2.90,bus
2026-01-05,food,0.10,gum
2026-01-05,food,0.20,mints
2026-01-08,home,54.99,lamp
2026-01-12,travel,2.90,bus
2026-01-15,food,31.75,groceries
2026-01-19,subscriptions,9.99,music
2026-01-22,home,12.00,light bulbs
2026-01-26,food,18.20,takeaway
2026-01-31,travel,120.00,train to Leeds
2026-01-31,food,27.35,groceries
2026-02-01,food,19.10,groceries
2026-02-03,subscriptions,9.99,music
C
git_init_commit "$D" "tally: initial import"
echo "created $D"
