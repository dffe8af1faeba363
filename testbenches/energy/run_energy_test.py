#!/usr/bin/env python3
"""Energy model tests against the leon3vp executable (docs/energy.md).

    run_energy_test.py LEON3VP COMMAND [options]

Commands:
  flat ELF          the flat profile gives instructions x 39.5 pJ, nothing else
  formula ELF       energy.* recomputed here from the run's own counters and
                    the profile file (an independent implementation of the
                    model's formula), whole run and per region
  double ELF        doubling every coefficient doubles every energy (whole
                    run, components, classes, regions, functions)
  profile ELF       --profile: the functions' energies add up to the CPU's
                    energy with what grows during power-down, and equal those
                    of a --profile-pc run (which reads the energy every step;
                    --profile alone reads it only where the function changes)
  echo ELF          the profile is echoed into --stats and the configuration
  udprx             per-datagram energy of the UDP receive benchmark by phase
                    against a golden file (--update rewrites it)
Extra leon3vp arguments after `--`.
"""
import argparse
import copy
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import l3vp  # noqa: E402
import l3vp.energy  # noqa: E402

CLASSES = l3vp.energy.CLASSES
load_profile = l3vp.energy.load_profile  # a shipped name or a path
PHASES = ["driver", "copy", "ipchk", "l4chk", "proto", "appcopy", "app"]
PHASE_REGION_BASE = 0x50480001


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def fj(pj):
    """pJ (at most 3 decimals) -> whole fJ, as the model reads the file."""
    return round(pj * 1000)


def static_fj(p, cycles, clock_hz):
    """P [nW] * cycles * 1e6 / f [Hz] fJ, floor (as the model computes it)."""
    return round(p["static_mw"] * 1e6) * cycles * 10**6 // clock_hz


def run(a, elf, profile, extra=(), **kw):
    r = l3vp.run(a.leon3vp, elf, stats=True, extra=["--energy", profile] + list(extra) + list(a.extra), **kw)
    if r.crashed or r.returncode != a.expect_exit:
        fail(f"{r.cmd}: exit {r.returncode}: {r.last_stderr_line()}")
    return r


def expected(profile, stats):
    """The model's formula, written again from docs/energy.md: the run's
    energy by component from its counters (coarse mode)."""
    p = profile
    t = stats["timing"]
    n = stats["instructions"]["by_class"]
    stall = t["annul_cycles"] + t["trap_cycles"] + sum(t["stalls"].values())
    masters = {m["name"]: m for m in stats["energy"]["by_master"]}
    cpu = masters["leon3"]
    ahb = p["ahb_transfer_pj"]
    e = {
        "core": sum(n[c] * fj(p["instruction_pj"][c]) for c in CLASSES) + stall * fj(p["stall_cycle_pj"]),
        "icache": t["icache"]["misses"] * fj(p["icache_miss_pj"]),
        "dcache": t["dcache"]["read_misses"] * fj(p["dcache_miss_pj"]),
        "ahb": cpu["beats"] * fj(ahb.get("leon3", ahb["default"])),
        "apb": cpu["apb_accesses"] * fj(p["apb_access_pj"]),
        "sdram": cpu["sdram_read_words"] * fj(p["sdram_read_word_pj"]) +
                 cpu["sdram_write_words"] * fj(p["sdram_write_word_pj"]),
        "static": static_fj(p, stats["cycles"], stats["clock_hz"]),
        "idle": stats["idle_cycles"] * fj(p["idle_cycle_pj"]),
    }
    dma = 0
    for name, m in masters.items():
        if name == "leon3":
            continue
        dma += (m["beats"] * fj(ahb.get(name, ahb["default"])) + m["sdram_read_words"] * fj(p["sdram_read_word_pj"]) +
                m["sdram_write_words"] * fj(p["sdram_write_word_pj"]) + m["apb_accesses"] * fj(p["apb_access_pj"]))
    e["greth_dma"] = dma
    return e


def region_expected(p, r):
    """A region's instruction base energy and I-cache miss energy from its
    own figures (no bus counts per region: those are checked through the
    components' sum)."""
    core = sum(r["by_class"][c] * fj(p["instruction_pj"][c]) for c in CLASSES)
    icache = r["icache_misses"] * fj(p["icache_miss_pj"])
    return core, icache


def cmd_flat(a):
    s = run(a, a.elf, "flat").stats
    e = s["energy"]
    want = s["instructions"]["total"] * 39500
    if e["total_fj"] != want or e["cpu_fj"] != want:
        fail(f"flat: total {e['total_fj']} fJ, expected {s['instructions']['total']} x 39500 = {want}")
    if any(v for k, v in e["by_component"].items() if k != "core"):
        fail(f"flat: non-core energy {e['by_component']}")
    if s["instructions"]["total"] < 1000:
        fail("flat: the program ran too little to mean anything")
    print(f"PASS: {s['instructions']['total']} instructions x 39.5 pJ = {want} fJ")


def beyond(a, total):
    """--beyond-64: the run must be one whose energy does not fit 64 bits."""
    if a.beyond_64 and not total >= 2**64:
        fail(f"total {total} fJ fits 64 bits: the test means nothing")


def nj_text(fj):
    """The --profile report's energy column: nJ with 3 decimals, rounded to the pJ."""
    pj = (fj + 500) // 1000
    return f"{pj // 1000}.{pj % 1000:03d}"


def check_report(text, functions):
    """Each function's energy in the text report is its exact --stats figure."""
    for f in functions:
        row = [ln.split() for ln in text.splitlines() if ln.endswith("  " + f["name"])]
        if not row or row[0][7] != nj_text(f["energy_fj"]):
            fail(f"--profile report for {f['name']}: {row[:1]}, expected energy {nj_text(f['energy_fj'])} nJ")


def cmd_formula(a):
    prof = load_profile(a.profile)
    s = run(a, a.elf, a.profile).stats
    e = s["energy"]
    want = expected(prof, s)
    if e["by_component"] != want:
        fail(f"components {e['by_component']} != recomputed {want}")
    if e["total_fj"] != sum(want.values()) or e["cpu_fj"] != sum(v for k, v in want.items() if k != "greth_dma"):
        fail("totals are not the sum of the components")
    for c in CLASSES:
        if e["by_class"][c] != s["instructions"]["by_class"][c] * fj(prof["instruction_pj"][c]):
            fail(f"by_class.{c}")
    regions = s.get("regions", [])
    for r in regions:
        core, icache = region_expected(prof, r)
        # The rest of the core energy is stall cycles x stall_cycle_pj.
        stall = r["energy"]["core"] - core
        e_stall = fj(prof["stall_cycle_pj"])
        if stall < 0 or (stall % e_stall != 0 if e_stall else stall != 0):
            fail(f"region {r['id']:#x}: core energy {r['energy']['core']} vs instructions {core}")
        if r["energy"]["icache"] != icache or r["energy"]["idle"] != r["idle_cycles"] * fj(prof["idle_cycle_pj"]):
            fail(f"region {r['id']:#x}: icache/idle energy")
        if sum(r["energy"].values()) != r["energy_fj"]:
            fail(f"region {r['id']:#x}: components do not add up to energy_fj")
    beyond(a, e["total_fj"])
    dma = want["greth_dma"]
    print(f"PASS: {len(want)} components and {len(CLASSES)} classes recomputed exactly "
          f"(total {e['total_fj'] / 1e6:.3f} nJ, GRETH DMA {dma / 1e6:.3f} nJ, {len(regions)} regions)")


def doubled(prof):
    p = copy.deepcopy(prof)
    for k in ("icache_miss_pj", "dcache_miss_pj", "stall_cycle_pj", "idle_cycle_pj", "static_mw",
              "apb_access_pj", "sdram_read_word_pj", "sdram_write_word_pj"):
        p[k] = p[k] * 2
    for group in ("instruction_pj", "ahb_transfer_pj"):
        p[group] = {k: v * 2 for k, v in p[group].items()}
    if "pair_pj" in p:
        p["pair_pj"] = {a: {b: v * 2 for b, v in row.items()} for a, row in p["pair_pj"].items()}
    p["name"] += "-x2"
    return p


def energies(s):
    """Every energy figure of a --stats object, by path."""
    out = {}
    e = s["energy"]
    for k in ("total_fj", "cpu_fj", "pairs_fj"):
        out[k] = e[k]
    for group in ("by_component", "by_class"):
        for k, v in e[group].items():
            out[f"{group}.{k}"] = v
    for m in e["by_master"]:
        out[f"master.{m['name']}"] = m["energy_fj"]
    for r in s.get("regions", []):
        out[f"region.{r['id']:#x}"] = r["energy_fj"]
        for k, v in r["energy"].items():
            out[f"region.{r['id']:#x}.{k}"] = v
    for f in s.get("profile", {}).get("functions", []):
        out[f"function.{f['name']}"] = f["energy_fj"]
    return out


def cmd_double(a):
    prof = load_profile(a.profile)
    with tempfile.TemporaryDirectory() as d:
        p1, p2 = os.path.join(d, "p1.json"), os.path.join(d, "p2.json")
        json.dump(prof, open(p1, "w"))
        json.dump(doubled(prof), open(p2, "w"))
        extra = ["--profile-out", os.path.join(d, "prof.txt")]
        s1 = run(a, a.elf, p1, extra).stats
        e1 = energies(s1)
        e2 = energies(run(a, a.elf, p2, extra).stats)
    if set(e1) != set(e2):
        fail("different figures")
    # Static energy is floor(P * cycles / f): doubling P doubles it up to
    # the one fJ each floor drops, once for the whole run, once per region
    # entry (BEGIN and END read it), once per step for a function;
    # everything else doubles exactly.
    slack = {k: 0 for k in e1}
    for k in ("total_fj", "cpu_fj", "by_component.static"):
        slack[k] = 1
    for r in s1.get("regions", []):
        for k in (f"region.{r['id']:#x}", f"region.{r['id']:#x}.static"):
            slack[k] = 2 * r["entries"]
    for f in s1.get("profile", {}).get("functions", []):
        slack[f"function.{f['name']}"] = f["cycles"]
    for k in e1:
        if not (2 * e1[k] - slack[k] <= e2[k] <= 2 * e1[k] + slack[k]):
            fail(f"{k}: {e2[k]} with doubled coefficients, {e1[k]} before")
    nonzero = sum(1 for v in e1.values() if v)
    if nonzero < 10:
        fail("too few non-zero energies to mean anything")
    print(f"PASS: {len(e1)} energies ({nonzero} non-zero) doubled")


def cmd_profile(a):
    with tempfile.TemporaryDirectory() as d:
        s = run(a, a.elf, a.profile, ["--profile-out", os.path.join(d, "p.txt")]).stats
        text = open(os.path.join(d, "p.txt")).read()
        # The reference: with the per-PC histogram the profiler reads the
        # energy after every step and gives each step its own growth.
        s_pc = run(a, a.elf, a.profile, ["--profile-out", os.path.join(d, "p2.txt"),
                                         "--profile-pc", os.path.join(d, "pc.txt")]).stats
    e, p = s["energy"], s["profile"]
    if p != s_pc["profile"]:
        diff = [(f["name"], f["energy_fj"], g["energy_fj"]) for f, g in zip(p["functions"], s_pc["profile"]["functions"])
                if f != g]
        fail(f"profile differs from the per-step one (--profile-pc): {diff[:5]} "
             f"energy_fj {p.get('energy_fj')} vs {s_pc['profile'].get('energy_fj')}, unattributed "
             f"{p.get('energy_unattributed_fj')} vs {s_pc['profile'].get('energy_unattributed_fj')}")
    funcs = sum(f["energy_fj"] for f in p["functions"])
    if funcs != p["energy_fj"]:
        fail(f"functions sum {funcs} != profile.energy_fj {p['energy_fj']}")
    if p["energy_fj"] + p["energy_unattributed_fj"] != e["cpu_fj"]:
        fail(f"profile {p['energy_fj']} + unattributed {p['energy_unattributed_fj']} != cpu {e['cpu_fj']}")
    # What grows outside steps is the power-down: idle cycles at the idle
    # energy plus their static energy (floors: at most 1 fJ per step).
    prof = load_profile(a.profile)
    idle = s["idle_cycles"]
    want = idle * fj(prof["idle_cycle_pj"]) + static_fj(prof, idle, s["clock_hz"])
    if not (want - p["cycles"] <= p["energy_unattributed_fj"] <= want + p["cycles"]):
        fail(f"unattributed {p['energy_unattributed_fj']} fJ, expected about {want} ({idle} idle cycles)")
    if a.expect_idle and idle == 0:
        fail("the program never powered down")
    if "energy-nJ" not in text:
        fail("the --profile report has no energy column")
    check_report(text, p["functions"])
    beyond(a, e["total_fj"])
    print(f"PASS: {len(p['functions'])} functions add up to {p['energy_fj']} fJ (as per step); "
          f"{p['energy_unattributed_fj']} fJ in {idle} idle cycles")


def cmd_echo(a):
    prof = load_profile(a.profile)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "mine.json")
        json.dump(prof, open(path, "w"))
        s = run(a, a.elf, path).stats
        s0 = l3vp.run(a.leon3vp, a.elf, stats=True, extra=list(a.extra)).stats
    if s["energy"]["profile"] != prof:
        fail("energy.profile is not the file's content")
    if s["energy"]["profile_origin"] != path or s["config"]["energy"]["profile"] != path:
        fail(f"origin {s['energy']['profile_origin']}, config {s['config'].get('energy')}")
    if "energy" in s0 or any("energy_fj" in r for r in s0.get("regions", [])):
        fail("a run without --energy has energy figures")
    if s0["version"]["config_hash"] == s["version"]["config_hash"]:
        fail("the configuration hash ignores the energy profile")
    # Everything else is the same run.
    for k in ("cycles", "instructions", "timing"):
        if s[k] != s0[k]:
            fail(f"--energy changed {k}")
    print("PASS: profile echoed, config hash follows it, no other result changed")


def cmd_udprx(a):
    """Energy per received datagram (fJ) and phase, 64 and 1024 data bytes,
    the stack's default checksum and the shipped estimate profile."""
    scen_src = os.path.join(ROOT, "testbenches", "board-net", "udprx.scenario.json")
    out = {}
    count = 20
    with tempfile.TemporaryDirectory() as d:
        for size in (64, 1024):
            scen = json.load(open(scen_src))
            x = scen["experiments"][0]
            x["size"], x["count"], x["delay"] = size, count, "500us"
            scen["duration"] = "5s"
            path = os.path.join(d, f"udprx{size}.json")
            json.dump(scen, open(path, "w"))
            r = run(a, a.elf, a.profile, scenario=path, uart=True, fw_params={"count": count, "flags": 4})
            res = l3vp.first_line(r.lines(), "result")
            if not res or res["received"] != count or res["bad"] != 0:
                fail(f"{size} B: received {res}")
            regions = {g["id"]: g for g in r.stats["regions"]}
            per = {}
            for i, ph in enumerate(PHASES):
                g = regions.get(PHASE_REGION_BASE + i)
                per[ph] = (g["energy_fj"] // count) if g else 0
            per["sum_phases"] = sum(per.values())
            per["greth_dma_total"] = r.stats["energy"]["by_component"]["greth_dma"]
            out[str(size)] = per
    golden = os.path.join(HERE, "golden", "udprx_energy.json")
    if a.update:
        with open(golden, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"updated {golden}")
        return
    want = json.load(open(golden))
    if out != want:
        diff = {s: {k: (want.get(s, {}).get(k), v) for k, v in out[s].items() if want.get(s, {}).get(k) != v}
                for s in out}
        fail(f"per-datagram energies (golden, now) differ: {diff}")
    if not out["1024"]["sum_phases"] > out["64"]["sum_phases"] > 0:
        fail("1024 B datagrams should cost more than 64 B ones")
    print("PASS: per-datagram energy by phase as golden: " +
          "; ".join(f"{s} B {v['sum_phases'] / 1e6:.1f} nJ" for s, v in out.items()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("leon3vp")
    ap.add_argument("command", choices=["flat", "formula", "double", "profile", "echo", "udprx"])
    ap.add_argument("elf")
    ap.add_argument("--profile", default="leon3-90nm-estimate")
    ap.add_argument("--expect-idle", action="store_true")
    ap.add_argument("--beyond-64", action="store_true", help="the run's energy must exceed 2^64 fJ")
    ap.add_argument("--expect-exit", type=int, default=0)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("extra", nargs="*")
    a = ap.parse_args()
    globals()["cmd_" + a.command](a)


if __name__ == "__main__":
    main()
