#!/usr/bin/python3
"""scripts/cycles-compare on real --stats files (CTest cycles.compare_cli).

    check_cycles_compare.py SCRIPT LEON3VP FIRMWARE_DIR

prof_regions (three named regions) runs twice with the energy model: as
the board is, and with five more SDRAM read wait states (every miss and
uncached read costs more; the same instructions). Then:
  baseline vs itself: exit 0, nothing changed;
  baseline vs slow: exit 1, REGRESSION rows for the whole run's cycles and
    for the named region loop_cold (--elf names it);
  slow vs baseline: exit 0 (improvements), exit 1 with --strict;
  a tolerance above the slowdown: exit 0;
  --regions/--metrics restrict the table (the regions' instructions did
    not move);
  bad input: exit 2 and one stderr line naming the problem.
"""
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    script, vp, fw = sys.argv[1:4]
    elf = os.path.join(fw, "prof_regions.elf")
    tmp = tempfile.mkdtemp(prefix="cycles-compare-")
    base, slow = os.path.join(tmp, "base.json"), os.path.join(tmp, "slow.json")
    for out, extra in ((base, []), (slow, ["--set", "memory.sdram.read_ws=12"])):
        p = subprocess.run([vp, "-q", "--energy", "leon3-90nm-estimate", "--stats", out, *extra, elf],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            fail(f"leon3vp {' '.join(extra)}: exit {p.returncode}: {p.stderr.strip()}")

    def cmp(*args, expect):
        p = subprocess.run([sys.executable, script, *args], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        print(f"$ cycles-compare {' '.join(os.path.basename(a) for a in args)}  -> exit {p.returncode}")
        print(p.stdout + p.stderr, end="")
        if p.returncode != expect:
            fail(f"exit {p.returncode}, expected {expect}")
        return p

    def rows(out):
        """{(region, metric): verdict} of a printed table (verdict last, '' if unchanged)."""
        got = {}
        for line in out.splitlines()[1:]:  # header, table, then the summary line
            if " figures of " in line:
                break
            f = line.split()
            if len(f) >= 6:  # unchanged rows (--all) have no verdict
                got[(f[0], f[1])] = " ".join(f[6:])
        return got

    p = cmp(base, base, "--elf", elf, expect=0)
    if "all identical" not in p.stdout or not p.stdout.startswith("(no differences)"):
        fail("baseline against itself: not 'all identical'")

    p = cmp(base, slow, "--elf", elf, expect=1)
    r = rows(p.stdout)
    for key in (("(run)", "cycles"), ("loop_cold", "cycles")):
        if r.get(key) != "REGRESSION":
            fail(f"{key}: {r.get(key)!r}, expected REGRESSION")
    if not p.stdout.rstrip().endswith("REGRESSION"):
        fail("last line is not REGRESSION")
    if "largest cycles changes by region: sum_words " not in p.stdout:
        fail("the hotspot line does not name sum_words (the region with most D-cache misses)")
    b, s = json.load(open(base)), json.load(open(slow))
    line = [ln for ln in p.stdout.splitlines() if ln.split()[:2] == ["(run)", "cycles"]][0].split()
    if line[2:5] != [str(b["cycles"]), str(s["cycles"]), "%+d" % (s["cycles"] - b["cycles"])]:
        fail(f"(run) cycles row {line}: expected {b['cycles']} -> {s['cycles']}")

    # Back again: fewer cycles and less energy are improvements, which pass
    # (the whole run's instruction count moves too: the firmware polls the
    # UART, so the metrics are restricted to the costs that only fall; and
    # the regions to those that touch memory: loop_warm's cycles are equal
    # in both runs and its energy, a difference of two rounded totals, may
    # move by 1 fJ either way).
    m = ["--metrics", "cycles,cpu_energy_fj,stalls.icache_miss,stalls.dcache_miss",
         "--regions", "run,loop_cold,sum_words"]
    p = cmp(slow, base, "--elf", elf, *m, expect=0)
    if rows(p.stdout).get(("(run)", "cycles")) != "improvement":
        fail("slow -> baseline: cycles not an improvement")
    cmp(slow, base, "--strict", "--elf", elf, *m, expect=1)

    # Tolerance: the stall buckets grew by about 30 %, the cycles by less.
    p = cmp(base, slow, "--tolerance", "100", expect=0)
    if set(rows(p.stdout).values()) - {"within tolerance"}:
        fail("--tolerance 100: a row beyond the tolerance")
    cmp(base, slow, "--tolerance", "10", expect=1)
    p = cmp(base, slow, "--tolerance", "10", "--metrics", "cycles", "--regions", "run", expect=0)
    # The regions' instructions do not depend on wait states (the whole
    # run's do: the firmware polls the UART).
    p = cmp(base, slow, "--elf", elf, "--regions", "loop_cold,0x3", "--metrics", "instructions,entries", expect=0)
    if "(no differences)" not in p.stdout:
        fail("--regions/--metrics: the regions' instructions should be identical")
    p = cmp(base, slow, "--elf", elf, "--regions", "loop_warm", "--metrics", "cycles", "--all", expect=p.returncode)
    if set(k[0] for k in rows(p.stdout)) != {"loop_warm"}:
        fail("--regions loop_warm: other regions in the table")

    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write("{not json")
    for args, needle in (([base, os.path.join(tmp, "none.json")], "none.json"),
                         ([base, bad], "not valid JSON"),
                         ([base, elf], "not valid JSON"),
                         ([base, slow, "--tolerance", "-1"], "--tolerance"),
                         ([base, slow, "--tolerance", "x"], "--tolerance"),
                         ([base, slow, "--regions", "nosuch"], "no region 'nosuch'"),
                         ([base, slow, "--metrics", "cycels"], "unknown metric 'cycels'"),
                         ([base, slow, "--elf", bad], "not an ELF"),
                         ([base], "required")):
        p = cmp(*args, expect=2)
        lines = p.stderr.strip().splitlines()
        if len(lines) != 1 or needle not in lines[0] or not lines[0].startswith("cycles-compare: error: "):
            fail(f"bad input {args[1:]}: stderr {p.stderr!r}, expected one line with {needle!r}")
    print("PASS")


if __name__ == "__main__":
    main()
