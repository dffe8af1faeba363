"""pytest unit tests of scripts/lib/l3vp/cycles.py (CTest pylib.cycles):
the verdict of each kind of change, the table, goldens, region selectors,
and the region names of real firmware ELFs (L3VP_FW_DIR from CTest)."""
import json
import math
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from l3vp import cycles  # noqa: E402

FW_DIR = os.environ.get("L3VP_FW_DIR")
needs_fw = pytest.mark.skipif(not FW_DIR, reason="L3VP_FW_DIR not set")


def stats(cycles_=1000, instructions=500, idle=100, regions=None, reason="exit", status=0):
    """A --stats dict with the keys cycles.figures reads."""
    return {
        "cycles": cycles_, "idle_cycles": idle, "sim_time_ps": cycles_ * 25000,
        "instructions": {"total": instructions}, "traps": 3,
        "stop": {"reason": reason, "exit_status": status},
        "timing": {"icache": {"misses": 7}, "dcache": {"read_misses": 9},
                   "stalls": {s: 1 for s in cycles.STALLS}},
        "regions": regions if regions is not None else [region(0x10, 200)],
    }


def region(rid, cyc, entries=4, instructions=80, energy=None):
    r = {"id": rid, "entries": entries, "cycles": cyc, "instructions": instructions, "idle_cycles": 0,
         "icache_misses": 1, "dcache_misses": 2, "traps": 0, "stalls": {s: 0 for s in cycles.STALLS}}
    if energy is not None:
        r["energy_fj"] = energy
    return r


def verdicts(rows):
    return {(r.region, r.metric): r.verdict for r in rows if r.verdict != cycles.SAME}


# ---- figures -----------------------------------------------------------------

def test_figures_paths():
    f = cycles.figures(stats(regions=[region(0x10, 200, energy=55)]), {0x10: "net.ipchk"})
    assert f["run"]["cycles"] == 1000
    assert f["run"]["instructions"] == 500
    assert f["run"]["dcache_read_misses"] == 9
    assert f["run"]["stalls.bus"] == 1
    assert f["run"]["stop_reason"] == "exit"
    assert "energy_fj" not in f["run"]  # no --energy: no energy figures
    r = f["regions"][0x10]
    assert r["name"] == "net.ipchk" and r["dcache_read_misses"] == 2 and r["cpu_energy_fj"] == 55


@pytest.mark.parametrize("bad", [[], {"cycles": 1}, {"regions": []}, {"cycles": 1, "regions": [{"x": 1}]}])
def test_figures_rejects_non_stats(bad):
    with pytest.raises(ValueError):
        cycles.figures(bad)


# ---- verdicts ------------------------------------------------------------------

def test_identical():
    f = cycles.figures(stats())
    rows = cycles.compare(f, f)
    assert all(r.verdict == cycles.SAME for r in rows)
    assert not cycles.failed(rows, strict=True)
    assert cycles.format_table(rows) == "(no differences)"


def test_cost_increase_is_a_regression_and_decrease_an_improvement():
    old = cycles.figures(stats(regions=[region(0x10, 200)]))
    new = cycles.figures(stats(cycles_=1010, regions=[region(0x10, 190)]))
    v = verdicts(cycles.compare(old, new))
    assert v[("(run)", "cycles")] == cycles.REGRESSION
    assert v[("0x00000010", "cycles")] == cycles.IMPROVEMENT
    assert v[("(run)", "sim_time_ps")] == cycles.CHANGED  # info: neither better nor worse
    assert cycles.failed(cycles.compare(old, new))
    # Only the improvement: passes, unless strict.
    rows = cycles.compare(old, new, regions={0x10})
    assert not cycles.failed(rows) and cycles.failed(rows, strict=True)


def test_tolerance_is_in_percent_and_inclusive():
    old = cycles.figures(stats(cycles_=1000))
    new = cycles.figures(stats(cycles_=1020))
    rows = cycles.compare(old, new, tolerance=2.0, metrics={"cycles"})
    assert verdicts(rows) == {("(run)", "cycles"): cycles.WITHIN}
    assert not cycles.failed(rows, strict=True)
    rows = cycles.compare(old, new, tolerance=1.99, metrics={"cycles"})
    assert verdicts(rows) == {("(run)", "cycles"): cycles.REGRESSION}


def test_info_changes_fail_only_when_strict():
    old = cycles.figures(stats(idle=100))
    new = cycles.figures(stats(idle=900))
    rows = cycles.compare(old, new)
    assert verdicts(rows) == {("(run)", "idle_cycles"): cycles.CHANGED}
    assert not cycles.failed(rows) and cycles.failed(rows, strict=True)


def test_a_different_stop_always_fails():
    old = cycles.figures(stats())
    new = cycles.figures(stats(reason="error_mode", status=3))
    rows = cycles.compare(old, new, tolerance=1000)
    assert verdicts(rows) == {("(run)", "stop_reason"): cycles.REGRESSION,
                              ("(run)", "exit_status"): cycles.REGRESSION}


def test_lost_region_fails_new_region_is_reported():
    old = cycles.figures(stats(regions=[region(1, 10), region(2, 20)]), {1: "a", 2: "b"})
    new = cycles.figures(stats(regions=[region(2, 20), region(3, 30)]), {2: "b", 3: "c"})
    rows = cycles.compare(old, new)
    assert verdicts(rows) == {("a", "cycles"): cycles.MISSING, ("c", "cycles"): cycles.NEW}
    assert cycles.failed(rows)
    rows = cycles.compare(old, new, regions={2, 3})
    assert not cycles.failed(rows) and cycles.failed(rows, strict=True)


def test_percent():
    assert cycles.Row("r", "cycles", 200, 250, None).percent == 25.0
    assert cycles.Row("r", "cycles", 0, 5, None).percent == math.inf
    assert cycles.Row("r", "cycles", 0, 0, None).percent == 0.0
    assert cycles.Row("r", "stop_reason", "exit", "idle", None).percent is None


# ---- the table -----------------------------------------------------------------

def test_table_columns():
    old = cycles.figures(stats(regions=[region(0x4e455201, 50113)]), {0x4e455201: "net_rx"})
    new = cycles.figures(stats(regions=[region(0x4e455201, 52619)]), {0x4e455201: "net_rx"})
    lines = cycles.format_table(cycles.compare(old, new)).splitlines()
    assert lines[0].split() == ["region", "metric", "old", "new", "change", "%"]
    assert len(lines) == 2
    assert lines[1].split() == ["net_rx", "cycles", "50113", "52619", "+2506", "+5.00%", "REGRESSION"]
    full = cycles.format_table(cycles.compare(old, new), all_rows=True).splitlines()
    assert len(full) > 10 and full[1].split()[:2] == ["(run)", "stop_reason"]


# ---- goldens and files ---------------------------------------------------------

def test_golden_round_trip(tmp_path):
    f = cycles.figures(stats(regions=[region(1, 10), region(0x43530000, 20)]), {1: "loop"})
    g = cycles.to_golden(f, command={"elf": "x.elf"}, program="x")
    assert list(g["regions"]) == ["loop", "0x43530000"]
    assert g["regions"]["loop"]["id"] == 1
    p = tmp_path / "x.json"
    p.write_text(json.dumps(g))
    back = cycles.load(str(p))
    assert back == f
    assert not cycles.failed(cycles.compare(back, f), strict=True)


def test_golden_matches_stats_by_id(tmp_path):
    """A golden (names) against a bare --stats file (ids only)."""
    named = cycles.figures(stats(regions=[region(7, 10)]), {7: "phase"})
    g = tmp_path / "g.json"
    g.write_text(json.dumps(cycles.to_golden(named)))
    s = tmp_path / "s.json"
    s.write_text(json.dumps(stats(regions=[region(7, 11)])))
    rows = cycles.compare(cycles.load(str(g)), cycles.load(str(s)))
    assert verdicts(rows) == {("phase", "cycles"): cycles.REGRESSION}


@pytest.mark.parametrize("text, msg", [
    ("{nope", "not valid JSON"),
    ('{"format": "other/9"}', "not a cycles golden"),
    ('{"format": "leon3vp-cycles/1", "run": {}}', "without \"run\" and \"regions\""),
    ('{"format": "leon3vp-cycles/1", "run": {}, "regions": {"a": {}}}', "region 'a' without an integer id"),
    ('[1, 2]', "not a leon3vp --stats file"),
])
def test_load_errors_name_the_file(tmp_path, text, msg):
    p = tmp_path / "in.json"
    p.write_text(text)
    with pytest.raises(ValueError) as e:
        cycles.load(str(p))
    assert str(p) in str(e.value) and msg in str(e.value)


def test_resolve_regions():
    f = cycles.figures(stats(regions=[region(0x10, 1), region(0x20, 2)]), {0x10: "net.ipchk"})
    assert cycles.resolve_regions([f], ["net.ipchk", "0x20", "run"]) == {0x10, 0x20, cycles.RUN}
    assert cycles.resolve_regions([f], ["32"]) == {0x20}
    with pytest.raises(ValueError, match="no region 'net.copy'"):
        cycles.resolve_regions([f], ["net.copy"])


def test_golden_argv():
    argv = cycles.golden_argv("vp", "/fw", "/g", {"elf": "a.elf", "scenario": "../s.json", "energy": "flat",
                                                  "fw_params": {"count": 8}, "max_time": "1s"}, "S", "U")
    assert argv == ["vp", "-q", "--stats", "S", "--uart-out", "U", "--scenario", "/g/../s.json",
                    "--energy", "flat", "--max-time", "1s", "--fw-param", "count=8", "/fw/a.elf"]


# ---- region names of real ELFs -------------------------------------------------

@needs_fw
def test_region_names_prof_regions():
    assert cycles.region_names(os.path.join(FW_DIR, "prof_regions.elf")) == \
        {1: "loop_cold", 2: "loop_warm", 3: "sum_words"}


@needs_fw
def test_region_names_network_phases():
    names = set(cycles.region_names(os.path.join(FW_DIR, "net_ping.elf")).values())
    assert {"net.driver", "net.copy", "net.ipchk", "net.l4chk", "net.proto", "net.appcopy", "net.app",
            "net_rx", "net_rxframe", "net_tx", "net_timer"} == names


@needs_fw
def test_region_names_none_and_not_elf(tmp_path):
    assert cycles.region_names(os.path.join(FW_DIR, "bench_compute_short.elf")) == {}
    p = tmp_path / "x.elf"
    p.write_bytes(b"not an elf")
    with pytest.raises(ValueError, match="not an ELF"):
        cycles.region_names(str(p))


def test_hotspots_and_row_limit():
    names = {1: "net.ipchk", 2: "net.l4chk", 3: "net.app"}
    old = cycles.figures(stats(regions=[region(1, 100), region(2, 200), region(3, 300)]), names)
    new = cycles.figures(stats(regions=[region(1, 108), region(2, 190), region(3, 300, instructions=81)]), names)
    rows = cycles.compare(old, new)
    assert cycles.hotspots(rows, "cycles") == "net.ipchk +8 (+8.00%), net.l4chk -10 (-5.00%)"
    assert cycles.hotspots(rows, "cycles", n=1) == "net.ipchk +8 (+8.00%)"
    assert cycles.hotspots(rows, "instructions") == "net.app +1 (+1.25%)"
    assert cycles.hotspots(rows, "traps") == ""
    lines = cycles.format_table(rows, max_rows=2).splitlines()
    assert len(lines) == 4 and lines[-1] == "... 1 more rows"


# ---- the CI gate: scripts/cycles-compare --ci (l3vp.cycles_ci) -----------------

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
NAMES = {0x10: "net.ipchk", 0x20: "net.proto", 0x30: "net_tx"}


def net_stats(ipchk=(2000, 800, 150), proto=(11000, 4900, 180), tx=(2600, 1000, 5), run_cycles=None):
    """A --stats dict with three regions: (cycles, instructions, icache_misses)."""
    regs = []
    for rid, (cyc, ins, im) in zip((0x10, 0x20, 0x30), (ipchk, proto, tx)):
        r = region(rid, cyc, entries=8, instructions=ins)
        r["icache_misses"] = im
        regs.append(r)
    total = run_cycles if run_cycles is not None else 1_000_000 + sum(r["cycles"] for r in regs)
    return stats(cycles_=total, instructions=400_000 + sum(r["instructions"] for r in regs), regions=regs)


def ci(tmp_path, old, new, *args, env=None):
    """Run scripts/cycles-compare --ci on two --stats dicts."""
    import subprocess
    paths = []
    for n, d in (("base.json", old), ("new.json", new)):
        p = tmp_path / n  # goldens: their regions have names
        p.write_text(json.dumps(cycles.to_golden(cycles.figures(d, NAMES))))
        paths.append(str(p))
    e = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    e.update(env or {})
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, "cycles-compare"), "--ci", *paths, *args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)


def region_lines(out):
    """{region: verdict} of the --ci table."""
    got = {}
    for line in out.splitlines()[2:]:
        f = line.split()
        if len(f) >= 6 and (f[0] in NAMES.values() or f[0] == "(run)"):
            got[f[0]] = " ".join(w for w in f[5:] if w[0] not in "+-0123456789")
    return got


def test_ci_identical_passes(tmp_path):
    p = ci(tmp_path, net_stats(), net_stats())
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith("OK: no region slower beyond the floors\n")
    assert p.stdout.rstrip().endswith("OK")


def test_ci_slowdown_in_one_region_fails_and_is_the_first_line(tmp_path):
    # net.proto: a loop (+400 instructions, +900 cycles); net_tx: only moved
    # (same instructions, +2 % cycles); net.ipchk: faster by 10 %.
    new = net_stats(ipchk=(1800, 760, 150), proto=(11900, 5300, 180), tx=(2652, 1000, 5))
    p = ci(tmp_path, net_stats(), new)
    assert p.returncode == 1, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "REGRESSION: net.proto SLOWER: cycles +900 (+8.18%), instructions +400 (+8.16%)"
    assert lines[2].split()[0] == "net.proto"  # the table's first region
    v = region_lines(p.stdout)
    assert v["net.proto"] == "SLOWER"
    assert v["net.ipchk"] == "faster"
    assert v["net_tx"] == "slower, layout"
    assert lines[-1] == "REGRESSION"
    assert "more than 1 % and at least 50" in p.stdout  # the floors are said


def test_ci_one_miss_under_the_floor_does_not_fail(tmp_path):
    # net_tx: one more I-cache miss (+20 %) and its 18 stall cycles
    new = net_stats(tx=(2618, 1000, 6))
    p = ci(tmp_path, net_stats(), new)
    assert p.returncode == 0, p.stdout
    assert region_lines(p.stdout)["net_tx"] == "slower, under the floors"
    assert "cache misses" not in p.stdout
    # The full table (no --ci) at --tolerance 1 calls the same change a regression.
    import subprocess
    full = subprocess.run([sys.executable, os.path.join(SCRIPTS, "cycles-compare"), str(tmp_path / "base.json"),
                           str(tmp_path / "new.json"), "--tolerance", "1"], stdout=subprocess.PIPE, text=True)
    assert full.returncode == 1 and "icache_misses" in full.stdout


def test_ci_misses_reported_beyond_floors_but_not_gated(tmp_path):
    new = net_stats(proto=(11000, 4900, 230))  # +50 misses on 180, cycles the same
    p = ci(tmp_path, net_stats(), new)
    assert p.returncode == 0
    assert "  net.proto icache_misses 180 -> 230 (+50, +27.78%)" in p.stdout.splitlines()
    p = ci(tmp_path, net_stats(), new, "--miss-floor", "60")
    assert "cache misses" not in p.stdout
    # Misses in the gate: beyond the floors they fail like cycles.
    p = ci(tmp_path, net_stats(), new, "--gate", "cycles,instructions,icache_misses")
    assert p.returncode == 1
    assert p.stdout.splitlines()[0].startswith("REGRESSION: net.proto SLOWER: icache_misses +50 (+27.78%)")
    assert ci(tmp_path, net_stats(), new, "--gate", "icache_misses", "--miss-base", "200").returncode == 0


def test_ci_layout_move_beyond_layout_tolerance_fails(tmp_path):
    new = net_stats(tx=(2900, 1000, 5))  # same instructions, +11.5 %
    p = ci(tmp_path, net_stats(), new)
    assert p.returncode == 1
    assert p.stdout.splitlines()[0].startswith("REGRESSION: net_tx SLOWER: cycles +300 (+11.54%), same instructions")
    assert ci(tmp_path, net_stats(), new, "--layout-tolerance", "12").returncode == 0


def test_ci_improvement_does_not_fail_but_is_reported(tmp_path):
    new = net_stats(proto=(9000, 4000, 180))
    p = ci(tmp_path, net_stats(), new)
    assert p.returncode == 0, p.stdout
    assert p.stdout.splitlines()[0] == "OK: no region slower beyond the floors (regions: 1 faster)"
    assert region_lines(p.stdout)["net.proto"] == "faster"
    assert ci(tmp_path, net_stats(), new, "--strict").returncode == 1


def test_ci_lost_region_and_changed_stop_fail(tmp_path):
    old = net_stats()
    new = net_stats()
    new["regions"] = new["regions"][:2]
    p = ci(tmp_path, old, new)
    assert p.returncode == 1 and p.stdout.startswith("REGRESSION: net_tx MISSING")
    new = net_stats()
    new["stop"] = {"reason": "max_time", "exit_status": None}
    p = ci(tmp_path, old, new)
    assert p.returncode == 1 and p.stdout.startswith("REGRESSION: (run) STOP CHANGED: stop_reason exit -> max_time")


def test_ci_markdown_written_and_step_summary_appended(tmp_path):
    md, summary = tmp_path / "cycles.md", tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    new = net_stats(proto=(11900, 5300, 180))
    p = ci(tmp_path, net_stats(), new, "--markdown", str(md), env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert p.returncode == 1
    text = md.read_text()
    assert text.startswith("### Cycle counts: REGRESSION: net.proto SLOWER")
    assert "| `net.proto` | 11000 | 11900 | +900 | +8.18% | +400 | +8.16% | **SLOWER** |" in text
    assert "| **whole run** |" in text and "<sub>gate: cycles, instructions" in text
    assert summary.read_text() == "earlier step\n" + text


@pytest.mark.parametrize("args, needle", [
    (["--markdown", "/nonexistent-dir/cycles.md"], "--markdown: cannot write /nonexistent-dir/cycles.md"),
    (["--gate", "cycels"], "--gate: unknown metric 'cycels'"),
    (["--gate", "cycles,entries"], "--gate: 'entries' is not a cost"),
    (["--min-change", "-3"], "--min-change"),
    (["--metrics", "cycles"], "--ci: --metrics and --all are for the full table"),
])
def test_ci_bad_input_one_line_exit_2(tmp_path, args, needle):
    p = ci(tmp_path, net_stats(), net_stats(proto=(11900, 5300, 180)), *args)
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cycles-compare: error: ") and needle in lines[0]


def test_markdown_needs_ci(tmp_path):
    import subprocess
    (tmp_path / "a.json").write_text(json.dumps(net_stats()))
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "cycles-compare"), str(tmp_path / "a.json"),
                        str(tmp_path / "a.json"), "--markdown", str(tmp_path / "x.md")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 2 and p.stderr.strip() == "cycles-compare: error: --markdown needs --ci"
    assert not (tmp_path / "x.md").exists()


def test_ci_evaluate_sorts_failing_first_then_by_cycles_change():
    from l3vp import cycles_ci
    old = cycles.figures(net_stats(), NAMES)
    new = cycles.figures(net_stats(ipchk=(1000, 800, 150), proto=(11600, 5000, 180), tx=(2700, 1000, 5)), NAMES)
    res = cycles_ci.evaluate(old, new)
    assert [(r.label, r.verdict) for r in res.regions] == [
        ("net.proto", cycles_ci.SLOWER), ("net.ipchk", cycles_ci.LAYOUT_FASTER), ("net_tx", cycles_ci.LAYOUT_SLOWER)]
    assert res.failed
    assert res.run.verdict == cycles_ci.SMALL_FASTER  # -300 cycles of a million


# ---- scripts/cycles-history (l3vp.cycles_history) ------------------------------

def git_repo(tmp_path, n):
    """A git repository with n commits, one second apart; their hashes, oldest first."""
    import subprocess
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}

    def git(*a, **kw):
        return subprocess.run(["git", "-C", str(repo), *a], check=True, stdout=subprocess.PIPE,
                              text=True, env={**env, **kw}).stdout.strip()

    git("init", "-q")
    hashes = []
    for i in range(n):
        (repo / "f").write_text(str(i))
        git("add", "f")
        date = f"2026-01-0{i + 1}T12:00:00+00:00"
        git("commit", "-q", "-m", f"change {i}", GIT_COMMITTER_DATE=date, GIT_AUTHOR_DATE=date)
        hashes.append(git("rev-parse", "HEAD"))
    return repo, hashes


def history(*args):
    import subprocess
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, "cycles-history"), *args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_history_add_same_commit_twice_keeps_one_row(tmp_path):
    import pandas as pd
    repo, (c0, c1) = git_repo(tmp_path, 2)
    h = tmp_path / "h.csv"
    s1, s2 = tmp_path / "net_ping.json", tmp_path / "other.json"
    s1.write_text(json.dumps(net_stats()))
    s2.write_text(json.dumps(stats(cycles_=777, regions=[region(0x10, 70)])))
    for rev in (c1, c0):  # added out of order: kept in commit order
        p = history("add", "--history", str(h), "--repo", str(repo), "--commit", rev, "--stats", str(s1))
        assert p.returncode == 0, p.stderr
    s1.write_text(json.dumps(net_stats(proto=(12345, 4900, 180))))
    p = history("add", "--history", str(h), "--repo", str(repo), "--commit", c1[:8], "--stats", str(s1),
                "--stats", f"other={s2}")
    assert p.returncode == 0, p.stderr
    df = pd.read_csv(h)
    assert list(df["commit"]) == [c0, c1]
    assert list(df["subject"]) == ["change 0", "change 1"]
    assert list(df["date"]) == ["2026-01-01T12:00:00Z", "2026-01-02T12:00:00Z"]
    assert list(df["net_ping/0x00000020/cycles"]) == [11000, 12345]
    assert df["other/(run)/cycles"].isna().tolist() == [True, False]
    # The same commit, only one program: the other program's figures stay.
    p = history("add", "--history", str(h), "--repo", str(repo), "--commit", c1, "--stats", str(s1))
    df = pd.read_csv(h)
    assert len(df) == 2 and df["other/(run)/cycles"].tolist()[1] == 777


def test_history_names_regions_from_golden_and_plot_writes_png(tmp_path):
    repo, commits = git_repo(tmp_path, 3)
    h, png = tmp_path / "h.csv", tmp_path / "h.png"
    for i, c in enumerate(commits):
        f = cycles.figures(net_stats(proto=(11000 + 500 * i, 4900, 180)), NAMES)
        f["regions"][0x10]["cpu_energy_fj"] = 1000 + i
        g = tmp_path / f"net_ping-{i}.json"
        g.write_text(json.dumps(cycles.to_golden(f)))
        assert history("add", "--history", str(h), "--repo", str(repo), "--commit", c,
                       "--stats", f"net_ping={g}").returncode == 0
    p = history("plot", "--history", str(h), "--out", str(png))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == f"{png}: cycles and cpu_energy_fj of 3 commits"
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000
    from l3vp import cycles_history
    df = cycles_history.read(str(h))
    assert cycles_history.series(df, "cycles")["net.proto"] == "net_ping/net.proto/cycles"
    assert list(df["net_ping/net.proto/cycles"]) == [11000, 11500, 12000]
    assert history("plot", "--history", str(h), "--out", str(png), "--relative",
                   "--regions", "net.proto,(run)").returncode == 0


@pytest.mark.parametrize("args, needle", [
    (["add", "--stats", "S", "--commit", "nosuch"], "'nosuch' in"),
    (["add", "--stats", "MISSING"], "missing.json: No such file"),
    (["plot", "--out", "OUT"], "no such file"),
    (["plot", "--out", "/nonexistent-dir/h.png", "--history", "H"], "cannot write /nonexistent-dir/h.png"),
    (["plot", "--out", "OUT", "--program", "nope", "--history", "H"], "--program: no cycles of 'nope'"),
    (["add"], "required"),
])
def test_history_bad_input_one_line_exit_2(tmp_path, args, needle):
    repo, (c0,) = git_repo(tmp_path, 1)
    s, h = tmp_path / "s.json", tmp_path / "h.csv"
    s.write_text(json.dumps(net_stats()))
    assert history("add", "--history", str(h), "--repo", str(repo), "--commit", c0,
                   "--stats", str(s)).returncode == 0
    sub = {"S": str(s), "MISSING": str(tmp_path / "missing.json"), "OUT": str(tmp_path / "o.png"), "H": str(h)}
    argv = [sub.get(x, x) for x in args]
    if "--history" not in argv and argv != ["add"]:
        argv += ["--history", str(h) if args[0] == "add" else str(tmp_path / "none.csv")]
    if args[0] == "add" and len(args) > 1:
        argv += ["--repo", str(repo)]
    p = history(*argv)
    assert p.returncode == 2, p.stdout + p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cycles-history: error: ") and needle in lines[0]
