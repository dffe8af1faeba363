#!/usr/bin/env python3
"""Driver for the leon3vp command-line tests (registered with CTest).

  run_cli_test.py LEON3VP check [--exit N] [--stderr-has TEXT]... [--stderr-lines N]
                                [--stdout TEXT] [--file-equals PATH TEXT] -- ARGS...
  run_cli_test.py LEON3VP determinism FIRMWARE [--expect-exit N] [--expect-irqs N] [--profile]
                                [--extra=ARG]...
  run_cli_test.py LEON3VP trace FIRMWARE
  run_cli_test.py LEON3VP profile FIRMWARE   (firmware/apps/prof_regions only)

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
INVARIANT = ["mode", "cycles", "cpi", "sim_time_ps", "instructions", "annulled", "traps", "interrupts",
             "idle_cycles", "devices", "timing", "regions", "profile"]


def cmd_determinism(a):
    runs = []
    variants = [["--quantum", q] for q in ("0ns", "25ns", "1us", "7us", "100us", "10ms")]
    variants.append(["--no-dmi"])
    variants.append(["--no-dmi", "--quantum", "3us"])
    for v in variants:
        stats = os.path.join(TMP, "stats_%d.json" % len(runs))
        extra = list(a.extra or [])
        if a.profile:
            extra += ["--profile-out", os.path.join(TMP, "profile_%d.txt" % len(runs))]
        code, out, err = run(a.leon3vp, v + extra + ["--stats", stats, a.firmware])
        with open(stats) as f:
            s = json.load(f)
        if a.profile and "profile" not in s:
            fail("%s: stats lack the profile" % v)
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
            if s.get(k) != ref.get(k):
                fail("%s: %s = %s differs from %s with %s" % (v, k, s.get(k), ref.get(k), ref_v))
        if s["cpu_bus"]["powerdowns"] != ref["cpu_bus"]["powerdowns"]:
            fail("%s: power-down count differs" % v)
        if s["stop"] != ref["stop"]:
            fail("%s: stop record differs" % v)
        for k in INVARIANT:
            if (k in s) != (k in ref):
                fail("%s: key %s present in only one run" % (v, k))
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
    if s["schema_version"] != 2 or s["stop"]["reason"] != "exit" or s["stop"]["exit_status"] != code:
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


def cmd_profile(a):
    """Exact instruction and cycle counts of firmware/apps/prof_regions.

    Expected values come from the listing in prof_regions/loops.S (N = 100
    loop iterations, 64 words summed) and, for timed mode, from the timing
    model of docs/timing.md with the preset configuration:
      I-cache line fill (32 B, SDRAM) = 3 miss overhead + 1 AHB transfer
                                        + 7 SDRAM read_ws + 7 burst beats = 18
      D-cache line fill (16 B, SDRAM) = 3 + 1 + 7 + 3 = 14
      region_loop per call: sethi 1, st 2, mov 1, 4N loop, not-taken bne
        after subcc +2, st 2, retl 3, mov 1 = 4N + 12 cycles
      region (st BEGIN .. st END excluded), warm: st 2 + mov 1 + 4N + 2 = 4N + 5
    """
    n, words = 100, 64
    results = {}
    for mode in ("timed", "functional"):
        stats = os.path.join(TMP, "prof_%s.json" % mode)
        pcs = os.path.join(TMP, "prof_%s.pc" % mode)
        rep = os.path.join(TMP, "prof_%s.txt" % mode)
        code, out, err = run(a.leon3vp, ["--mode", mode, "--stats", stats, "--profile-out", rep,
                                         "--profile-pc", pcs, a.firmware])
        if code != 0 or "prof_regions: PASS" not in out:
            fail("%s: firmware failed (exit %d)" % (mode, code))
        with open(stats) as f:
            s = json.load(f)
        results[mode] = s
        if s["mode"] != mode or s["config"]["mode"] != mode:
            fail("%s: stats say mode %r" % (mode, s["mode"]))
        regions = {r["id"]: r for r in s["regions"]}
        funcs = {f["name"]: f for f in s["profile"]["functions"]}

        def expect(what, got, want):
            if got != want:
                fail("%s: %s = %r, expected %r" % (mode, what, got, want))
            print("ok  %-10s %-40s %r" % (mode, what, got))

        expect("regions", sorted(regions), [1, 2, 3])
        expect("region 1 entries", regions[1]["entries"], 1)
        expect("region 2 entries", regions[2]["entries"], 2)
        expect("region 1 instructions", regions[1]["instructions"], 4 * n + 2)
        expect("region 2 instructions", regions[2]["instructions"], 2 * (4 * n + 2))
        expect("region 2 by_class.branch", regions[2]["by_class"]["branch"], 2 * n)
        expect("region 2 by_class.store", regions[2]["by_class"]["store"], 2)
        expect("region 1 unbalanced", regions[1]["unbalanced"], 0)
        expect("region_loop instructions", funcs["region_loop"]["instructions"], 3 * (4 * n + 6))
        expect("sum_words instructions", funcs["sum_words"]["instructions"], 5 * words + 3)
        # region 3 = st BEGIN, the call sequence and sum_words: at least the function
        if regions[3]["instructions"] < 5 * words + 3:
            fail("%s: region 3 has fewer instructions than sum_words" % mode)
        # The flat profile accounts for every cycle and instruction of the run.
        expect("profile cycles = cycles - idle", s["profile"]["cycles"], s["cycles"] - s["idle_cycles"])
        expect("profile instructions", s["profile"]["instructions"], s["instructions"]["total"])
        expect("sum of function cycles", sum(f["cycles"] for f in funcs.values()), s["profile"]["cycles"])
        if mode == "functional":
            # 1 cycle per instruction, no bus costs, no caches.
            expect("region 1 cycles", regions[1]["cycles"], 4 * n + 2)
            expect("region 2 cycles", regions[2]["cycles"], 2 * (4 * n + 2))
            expect("region_loop cycles", funcs["region_loop"]["cycles"], 3 * (4 * n + 6))
            expect("sum_words dcache misses", funcs["sum_words"]["dcache_misses"], 0)
            expect("timing.dcache.read_misses", s["timing"]["dcache"]["read_misses"], 0)
        else:
            ifill, dfill = 18, 14
            expect("region 2 cycles (warm)", regions[2]["cycles"], 2 * (4 * n + 5))
            expect("region 2 stalls.branch", regions[2]["stalls"]["branch"], 2 * 2)
            expect("region 2 icache misses", regions[2]["icache_misses"], 0)
            expect("region 1 icache misses (cold)", regions[1]["icache_misses"], 1)
            expect("region 1 cycles (cold)", regions[1]["cycles"], 4 * n + 5 + ifill)
            expect("region_loop icache misses", funcs["region_loop"]["icache_misses"], 1)
            expect("region_loop cycles", funcs["region_loop"]["cycles"], 3 * (4 * n + 12) + ifill)
            expect("sum_words dcache misses", funcs["sum_words"]["dcache_misses"], words // 4)
            expect("region 3 dcache misses", regions[3]["dcache_misses"], words // 4)
            expect("region 3 stalls.dcache_miss", regions[3]["stalls"]["dcache_miss"], words // 4 * dfill)
            # 5 per word, 16 fills, not-taken bne +2, retl +2 (JMPL costs 3)
            expect("sum_words cycles", funcs["sum_words"]["cycles"],
                   5 * words + 3 + words // 4 * dfill + 2 + 2)
            t = s["timing"]
            expect("icache accesses = hits + misses + uncached", t["icache"]["accesses"],
                   t["icache"]["hits"] + t["icache"]["misses"] + t["icache"]["uncached"])
            cyc = (s["idle_cycles"] + sum(t["class_cycles"].values()) + t["annul_cycles"] +
                   t["trap_cycles"] + sum(t["stalls"].values()))
            expect("cycles accounted by class + stalls", cyc, s["cycles"])
        with open(rep) as f:
            report = f.read()
        for needle in ("Flat profile", "region_loop", "sum_words", "Regions"):
            if needle not in report:
                fail("%s: --profile report lacks %r" % (mode, needle))
        with open(pcs) as f:
            lines = [l.split() for l in f if not l.startswith("#")]
        loop_pcs = [l for l in lines if l[1] == "region_loop"]
        if len(loop_pcs) != 10 or sum(int(l[2]) for l in loop_pcs) != 3 * (4 * n + 6):
            fail("%s: per-PC histogram of region_loop wrong: %r" % (mode, loop_pcs))
        body = [l for l in loop_pcs if int(l[2]) == 3 * n]
        if len(body) != 4:
            fail("%s: expected 4 loop-body PCs executed 3N times, got %r" % (mode, body))
    # Same program, same instruction stream in both modes (up to the UART
    # polling loops, which depend on time): the marked work is identical.
    for rid in (1, 2):
        a_ = {r["id"]: r for r in results["timed"]["regions"]}[rid]
        b_ = {r["id"]: r for r in results["functional"]["regions"]}[rid]
        if a_["by_class"] != b_["by_class"]:
            fail("region %d instruction mix differs between modes" % rid)
    print("PASS")


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
    d.add_argument("--profile", action="store_true")
    d.add_argument("--extra", action="append")
    t = sub.add_parser("trace")
    t.add_argument("firmware")
    pr = sub.add_parser("profile")
    pr.add_argument("firmware")
    a = p.parse_args()
    if a.mode == "check":
        if a.args and a.args[0] == "--":
            a.args = a.args[1:]
        cmd_check(a)
    elif a.mode == "determinism":
        cmd_determinism(a)
    elif a.mode == "profile":
        cmd_profile(a)
    else:
        cmd_trace(a)


if __name__ == "__main__":
    main()
