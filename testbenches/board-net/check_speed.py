#!/usr/bin/env python3
"""board-net.speed: the issue-15 speed experiment (experiments/docs/net-speed.yaml,
phases off, copy and zero-copy) must answer every echo, send every zero-copy
echo reply from its receive buffer (driver counter tx_swapped, no copy), and
keep the board turnaround, which is simulated and thus deterministic, within
the bounds below. The bounds are what this tree reaches, not yet the issue's
targets (25 us at 64 B, 80 us at 1 KiB; docs/firmware.md "Speed: before and
after (issue 15)"): lower them as the path gets faster.
usage: check_speed.py SCRIPTS_DIR EXPERIMENT_YAML OUT_DIR"""
import csv
import subprocess
import sys

# zero-copy turnaround bounds in us (64 B, 1024 B); before issue 15: 66.4, 177.7;
# after the zero-copy echo 57.9, 114.5; after the cache layout and path trimming
# 40.9, 97.2; with the hardening checks (source checks, keyed IP id, ARP
# conflict check: ~90 instructions and ~6 I-cache misses per echo) 47.0, 103.4
# with the TCP send path's buffer-and-checksum code (the hot code now exceeds the
# 8 KiB I-cache: more misses on the receive path) 50.5, 108.4 (docs/firmware.md)
BOUND_ZC = {64: 52.0, 1024: 110.0}


def main():
    scripts, yaml, out = sys.argv[1:4]
    subprocess.run([sys.executable, f"{scripts}/experiment", "run", yaml, "--out", out],
                   check=True, stdout=subprocess.DEVNULL)
    rows = list(csv.DictReader(open(f"{out}/results.csv")))
    assert len(rows) == 16, f"{len(rows)} runs"
    for r in rows:
        assert r["error"] == "" and r["exit_status"] == "0", r
        n, size = int(r["n"]), int(r["size"])
        assert int(float(r["replies"] or 0)) == n, f"{r['run_id']}: {r['replies']} of {n} echoes"
        echoes = int(float(r["echo_tx"]))
        swapped = int(float(r["swapped"]))
        # zero-copy: every echo reply (warm-up included) leaves from its RX buffer
        want = echoes if r["zc"] == "ON" else 0
        assert swapped == want, f"zc {r['zc']} size {size}: tx_swapped {swapped}, echoes {echoes}"
        if r["zc"] == "ON" and n == 10 and size in BOUND_ZC:
            ta = float(r["rtt_avg"]) - 25 - 2 * (size + 54) * 8 / 100
            assert ta <= BOUND_ZC[size], f"zero-copy {size} B turnaround {ta:.1f} us > {BOUND_ZC[size]}"
            print(f"zero-copy {size} B: turnaround {ta:.1f} us (bound {BOUND_ZC[size]})")
    print("speed: all echoes answered, zero-copy replies sent in place")


if __name__ == "__main__":
    main()
