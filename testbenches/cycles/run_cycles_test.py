#!/usr/bin/python3
"""One cycle-count regression test (testbenches/cycles, docs/cycles.md).

    run_cycles_test.py --vp LEON3VP --fw-dir FIRMWARE_DIR golden/PROGRAM.json

Runs leon3vp as the golden's "command" block says and compares every
figure (whole run and per region) with the golden EXACTLY: any difference
fails (exit 1), first with the summary of scripts/cycles-compare --ci (which
region moved, by how much, slower or faster or code layout), then the table
region, metric, old, new, change, %. Exit 2
when the golden is unreadable or leon3vp writes no --stats.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "lib"))
from l3vp import cycles, cycles_ci  # noqa: E402

MAX_ROWS = 150  # the whole table: scripts/bless-cycles --dry-run PROGRAM


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vp", required=True)
    ap.add_argument("--fw-dir", required=True)
    ap.add_argument("golden")
    a = ap.parse_args()
    prog = os.path.splitext(os.path.basename(a.golden))[0]
    try:
        g, new = cycles.run_golden(a.vp, a.fw_dir, a.golden)
        old = cycles.from_golden(g)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"cycles.{prog}: {e}")
        return 2
    rows = cycles.compare(old, new)
    # Exact: every change fails, whatever its direction or kind.
    bad = [r for r in rows if r.verdict != cycles.SAME]
    if not bad:
        print(f"cycles.{prog}: " + cycles.summary(rows))
        print(cycles.format_table([r for r in rows if r.region == "(run)"], all_rows=True))
        return 0
    print(f"cycles.{prog}: FAILED, the figures differ from {os.path.relpath(a.golden, REPO)}")
    # First what moved, by region (the rules of cycles-compare --ci; the
    # test itself stays exact), then every figure that differs.
    print("what moved, by the rules of scripts/cycles-compare --ci (this test is exact: any difference fails):")
    print(cycles_ci.format_text(cycles_ci.evaluate(old, new)))
    print("every figure that differs:")
    print(cycles.format_table(rows, max_rows=MAX_ROWS))
    print(cycles.summary(rows))
    for m in ("instructions", "cycles"):
        h = cycles.hotspots(rows, m)
        if h:
            print(f"largest {m} changes by region: {h}")
    print(f"If the change is intended and reviewed: scripts/bless-cycles {prog}"
          f" (scripts/bless-cycles --dry-run {prog} shows the whole table)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
