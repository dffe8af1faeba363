#!/usr/bin/env python3
"""Driver for the leon3vp command-line tests (registered with CTest).

  run_cli_test.py LEON3VP check [--exit N] [--stderr-has TEXT]... [--stderr-lines N]
                                [--stdout TEXT] [--file-equals PATH TEXT] -- ARGS...
  run_cli_test.py LEON3VP determinism FIRMWARE [--expect-exit N] [--expect-irqs N]
  run_cli_test.py LEON3VP trace FIRMWARE

In ARGS, "@trunc:PATH:N" is replaced by a temporary copy of the first N bytes
of PATH and "@tmp:NAME" by a fresh temporary file name.

Every run must end with a normal exit (no signal: no crash, no abort).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

TMP = tempfile.mkdtemp(prefix="l3vp_cli_")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def expand(arg):
    if arg.startswith("@trunc:"):
        path, n = arg[len("@trunc:"):].rsplit(":", 1)
        out = os.path.join(TMP, "trunc_" + os.path.basename(path))
        with open(path, "rb") as f:
            data = f.read(int(n))
        with open(out, "wb") as f:
            f.write(data)
        return out
    if arg.startswith("@tmp:"):
        return os.path.join(TMP, arg[len("@tmp:"):])
    return arg


def run(leon3vp, args, timeout=120):
    cmd = [leon3vp] + [expand(a) for a in args]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail("timeout: " + " ".join(cmd))
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    print("$ " + " ".join(cmd))
    print("exit %d\n--- stdout ---\n%s--- stderr ---\n%s" % (p.returncode, out, err))
    # A signal (crash, abort) shows as a negative status. Exit statuses of
    # 128 and more are legitimate firmware exit codes (%o0 & 0xFF); bad-input
    # tests pin the status to 2 anyway.
    if p.returncode < 0:
        fail("abnormal termination (signal %d): crash or abort" % -p.returncode)
    return p.returncode, out, err


def cmd_check(a):
    code, out, err = run(a.leon3vp, a.args)
    if a.exit is not None and code != a.exit:
        fail("exit status %d, expected %d" % (code, a.exit))
    lines = err.splitlines()
    if a.stderr_lines is not None and len(lines) != a.stderr_lines:
        fail("%d stderr lines, expected %d" % (len(lines), a.stderr_lines))
    for s in a.stderr_has or []:
        if s not in err:
            fail("stderr lacks %r" % s)
    if a.stdout is not None and out != a.stdout.encode().decode("unicode_escape"):
        fail("stdout %r, expected %r" % (out, a.stdout))
    if a.file_equals:
        path, text = expand(a.file_equals[0]), a.file_equals[1].encode().decode("unicode_escape")
        with open(path) as f:
            got = f.read()
        if got != text:
            fail("%s holds %r, expected %r" % (path, got, text))
    print("PASS")


# Simulated results that must not depend on the quantum or on DMI.
INVARIANT = ["cycles", "sim_time_ps", "instructions", "annulled", "traps", "interrupts",
             "idle_cycles", "devices"]


def cmd_determinism(a):
    runs = []
    variants = [["--quantum", q] for q in ("0ns", "25ns", "1us", "7us", "100us", "10ms")]
    variants.append(["--no-dmi"])
    variants.append(["--no-dmi", "--quantum", "3us"])
    for v in variants:
        stats = os.path.join(TMP, "stats_%d.json" % len(runs))
        code, out, err = run(a.leon3vp, v + ["--stats", stats, a.firmware])
        with open(stats) as f:
            s = json.load(f)
        runs.append((v, code, out, s))
    ref_v, ref_code, ref_out, ref = runs[0]
    if a.expect_exit is not None and ref_code != a.expect_exit:
        fail("exit status %d, expected %d" % (ref_code, a.expect_exit))
    if a.expect_irqs is not None and ref["interrupts"] != a.expect_irqs:
        fail("%d interrupts, expected %d" % (ref["interrupts"], a.expect_irqs))
    for v, code, out, s in runs[1:]:
        if code != ref_code or out != ref_out:
            fail("%s: exit/UART output differ from %s" % (v, ref_v))
        for k in INVARIANT:
            if s[k] != ref[k]:
                fail("%s: %s = %s differs from %s with %s" % (v, k, s[k], ref[k], ref_v))
        if s["cpu_bus"]["powerdowns"] != ref["cpu_bus"]["powerdowns"]:
            fail("%s: power-down count differs" % v)
        if s["stop"] != ref["stop"]:
            fail("%s: stop record differs" % v)
    # The runs were not trivially identical: the quantum did change the
    # number of synchronisations, DMI the number of bus transactions.
    syncs = {s["cpu_bus"]["syncs"] for _, _, _, s in runs}
    reads = {s["cpu_bus"]["reads"] for _, _, _, s in runs}
    if len(syncs) < 2 or len(reads) < 2:
        fail("variants did not exercise different quanta/DMI paths")
    print("PASS: %d variants, %d cycles, %d instructions" %
          (len(runs), ref["cycles"], ref["instructions"]["total"]))


def cmd_trace(a):
    trace = os.path.join(TMP, "trace.txt")
    stats = os.path.join(TMP, "stats.json")
    code, out, err = run(a.leon3vp, ["--trace", trace, "--stats", stats, a.firmware])
    with open(stats) as f:
        s = json.load(f)
    with open(trace) as f:
        lines = f.read().splitlines()
    for key in ("schema_version", "firmware", "stop", "sim_time_ns", "cycles", "instructions",
                "annulled", "traps", "interrupts", "idle_cycles", "host", "devices", "log", "bus"):
        if key not in s:
            fail("stats lack %r" % key)
    if s["schema_version"] != 1 or s["stop"]["reason"] != "exit" or s["stop"]["exit_status"] != code:
        fail("bad stop record %r" % s["stop"])
    by_class = sum(s["instructions"]["by_class"].values())
    if by_class != s["instructions"]["total"]:
        fail("by_class sums to %d, total %d" % (by_class, s["instructions"]["total"]))
    # One line per executed instruction (plus the final trapping one).
    if not (s["instructions"]["total"] <= len(lines) <= s["instructions"]["total"] + s["traps"] + 1):
        fail("%d trace lines for %d instructions" % (len(lines), s["instructions"]["total"]))
    first = lines[0].split()
    if first[0] != "40000000" or first[1] != "40000004":
        fail("first trace line %r does not start at the ELF entry" % lines[0])
    print("PASS: %d trace lines" % len(lines))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("leon3vp")
    sub = p.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("check")
    c.add_argument("--exit", type=int)
    c.add_argument("--stderr-has", action="append")
    c.add_argument("--stderr-lines", type=int)
    c.add_argument("--stdout")
    c.add_argument("--file-equals", nargs=2)
    c.add_argument("args", nargs=argparse.REMAINDER)
    d = sub.add_parser("determinism")
    d.add_argument("firmware")
    d.add_argument("--expect-exit", type=int)
    d.add_argument("--expect-irqs", type=int)
    t = sub.add_parser("trace")
    t.add_argument("firmware")
    a = p.parse_args()
    if a.mode == "check":
        if a.args and a.args[0] == "--":
            a.args = a.args[1:]
        cmd_check(a)
    elif a.mode == "determinism":
        cmd_determinism(a)
    else:
        cmd_trace(a)


if __name__ == "__main__":
    main()
