#!/usr/bin/python3
"""Smoke test of scripts/measure-net: runs it on the default firmware build
and checks that it succeeds and prints every table with numbers in it.

  check_measure_net.py MEASURE_NET LEON3VP FW_DIR
"""
import os
import re
import subprocess
import sys
import tempfile


def main():
    script, vp, fw = sys.argv[1:4]
    with tempfile.TemporaryDirectory(prefix="measure-net-") as tmp:
        out = os.path.join(tmp, "net.md")
        p = subprocess.run([sys.executable, script, "--vp", vp, "--fw-dir", fw, "--out", out],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
        if p.returncode != 0:
            print(f"FAIL: measure-net exit {p.returncode}\n{p.stdout}\n{p.stderr}")
            return 1
        md = open(out).read()
    for title in ("Ping RTT", "TCP receive", "TCP send", "UDP receive"):
        if title not in md:
            print(f"FAIL: no '{title}' table in the output\n{md}")
            return 1
    # The default row of the ping table: four min/avg/max triples, min <= avg <= max.
    row = next((l for l in md.splitlines() if l.startswith("| default")), None)
    if row is None:
        print(f"FAIL: no default ping row\n{md}")
        return 1
    triples = re.findall(r"([\d.]+) / ([\d.]+) / ([\d.]+)", row)
    if len(triples) != 4 or not all(float(a) <= float(b) <= float(c) for a, b, c in triples):
        print(f"FAIL: ping row malformed: {row}")
        return 1
    rtts = [float(b) for _, b, _ in triples]
    if rtts != sorted(rtts):
        print(f"FAIL: RTT does not grow with the size: {row}")
        return 1
    print("PASS: measure-net tables; default ping avg RTT " + ", ".join(f"{r:.1f}" for r in rtts) + " us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
