#!/usr/bin/python3
"""Golden-output test: run one firmware ELF in leon3vp and compare its UART
output and exit status with the expected files.

usage: run_golden.py --vp LEON3VP --elf ELF --expected FILE --status N [-- extra leon3vp args]

Fails (exit 1) on any difference, on a simulator crash (signal), or when the
output contains a line starting with '***ERROR' (Accellera-example style).
"""
import argparse
import difflib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import l3vp  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vp", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--status", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    extra = [x for x in a.rest if x != "--"]

    try:
        p = l3vp.run(a.vp, a.elf, uart=True, extra=extra, timeout=a.timeout)
    except l3vp.RunTimeout as e:
        print(f"FAIL: timeout after {a.timeout}s: {' '.join(e.cmd)}")
        return 1
    got = p.uart

    want = open(a.expected, encoding="latin-1").read()
    ok = True
    if p.returncode < 0 or p.returncode >= 128:
        print(f"FAIL: simulator crashed (exit {p.returncode})")
        ok = False
    elif p.returncode != a.status:
        print(f"FAIL: exit status {p.returncode}, expected {a.status}")
        ok = False
    if got != want:
        print("FAIL: UART output differs from", a.expected)
        sys.stdout.writelines(difflib.unified_diff(
            want.splitlines(True), got.splitlines(True), "expected", "leon3vp"))
        ok = False
    if any(l.startswith("***ERROR") for l in got.splitlines()):
        print("FAIL: ***ERROR line in output")
        ok = False
    if p.stderr.strip():
        print("leon3vp stderr:\n" + p.stderr)
    if ok:
        print(f"PASS: {os.path.basename(a.elf)} (exit {p.returncode}, {len(got)} UART bytes)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
