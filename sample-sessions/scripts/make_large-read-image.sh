#!/usr/bin/env bash
# Scratch project for the `large-read-image` session: "sensorlog", a greenhouse temperature
# logger with a 3,601-line / ~130 KB CSV export (data/readings.csv) and a 200x120 PNG chart
# of it (docs/chart.png). Probe s2 drops out for four hours on 2026-03-17 and the logger
# writes the -999.0 sentinel, which summary.py does not filter (the chart shows the dip).
# Usage: make_large-read-image.sh <dir>
. "$(dirname "$0")/lib.sh"
D="$1"; new_project "$D"
mkdir -p "$D/sensorlog" "$D/data" "$D/docs"
cat > "$D/README.md" <<'R'
# sensorlog

Greenhouse temperature/humidity logger export and tooling.

- `data/readings.csv`: one row per probe every 10 minutes (probes s0..s3), exported from the logger.
  The logger writes `-999.0` for temperature and humidity when a probe is disconnected.
- `docs/chart.png`: hourly mean temperature chart from the dashboard.
- `python3 -m sensorlog.summary data/readings.csv`: per-probe mean/min/max.
R
cat > "$D/sensorlog/__init__.py" <<'P'
P
cat > "$D/sensorlog/summary.py" <<'P'
import csv
import sys
from collections import defaultdict


def load(path):
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            yield row["sensor"], float(row["temp_c"])


def summarise(readings):
    by_sensor = defaultdict(list)
    for sensor, temp in readings:
        by_sensor[sensor].append(temp)
    return {
        s: (sum(v) / len(v), min(v), max(v), len(v))
        for s, v in sorted(by_sensor.items())
    }


def main(path):
    for sensor, (mean, lo, hi, n) in summarise(load(path)).items():
        print(f"{sensor}: mean {mean:6.2f}  min {lo:7.2f}  max {hi:6.2f}  n={n}")


if __name__ == "__main__":
    main(sys.argv[1])
P
python3 - "$D/data/readings.csv" <<'PY'
import math, random, sys
from datetime import datetime, timedelta
random.seed(20260301)
start = datetime(2026, 3, 1)
with open(sys.argv[1], "w", newline="") as f:
    f.write("timestamp,sensor,temp_c,humidity\n")
    for i in range(900):                     # 900 cycles of 40 min = 25 days; 4 probes 10 min apart = 3600 rows
        t = start + timedelta(minutes=40 * i)
        for s in range(4):
            ts = t + timedelta(minutes=10 * s)
            hour = ts.hour + ts.minute / 60
            temp = 21.5 + 3.2 * math.sin((hour - 9) / 24 * 2 * math.pi) + s * 0.4 + random.uniform(-0.6, 0.6)
            hum = 55 - 8 * math.sin((hour - 9) / 24 * 2 * math.pi) + random.uniform(-3, 3)
            if s == 2 and datetime(2026, 3, 17, 2) <= ts < datetime(2026, 3, 17, 6):
                temp = hum = -999.0
            f.write(f"{ts:%Y-%m-%dT%H:%M:00Z},s{s},{temp:.2f},{hum:.1f}\n")
PY
node "$(dirname "$0")/mkchart.mjs" "$D/data/readings.csv" "$D/docs/chart.png" 200 120
git_init_commit "$D" "sensorlog: March export and dashboard chart"
echo "created $D"
