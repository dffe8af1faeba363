#!/usr/bin/python3
"""The reference study (experiments/seed-study/, docs/experiments.md "The
reference study"): run its experiment files and `scripts/experiment
report --published`, then check the report against the tables it was
made from:

  quick  a few cells (--subset) of ping-rtt, udp-rx, tcp-window, energy
         and delayed-ack (scripts/test)
  full   every file, the whole grid (label long: scripts/test --long)

Checks: every published table has its section, how its quantity was
measured and its summary row; every printed VP value equals the CSV's
(derived improvements and ratios recomputed here from the CSV rows);
every scored cell's ratio is VP / published recomputed here and is marked
MISMATCH exactly when it is outside the table's tolerance, with the
number of an explanation line of its section (none unexplained);
calibration cells are tagged and not counted as held out; the cells of
a not comparable table read "(not comparable)" and are never counted;
trend cells say holds/differs; the summary's counts agree; the published
cells the quick subset covers are all compared (QUICK_EXPECT: red when
published numbers are dropped or mis-keyed), in the full study every
published cell meets a VP value; the HTML embeds the plots and marks the
same mismatches; bad input exits 2 with one line. Every file sets the
fast UART (board.set uart.fast: true), and the quick cells of ping-rtt,
udp-rx and tcp-window run again without it give the same metrics, cell
by cell, in shorter simulated runs.

    run_study_test.py --vp build/sim/leon3vp --fw-dir build/firmware --test quick|full [--keep DIR]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "scripts", "experiment")
STUDY = os.path.join(ROOT, "experiments", "seed-study")
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import pandas as pd  # noqa: E402
import yaml  # noqa: E402

FILES = ["udp-tx", "udp-rx", "udp-burst", "tcp-window", "tcp-conns", "ping-rtt", "energy", "delayed-ack",
         "tcp-loss", "zero-copy"]
QUICK = {"ping-rtt": ["size=64,1024", "interval=500us,100ms", "pc=calibrated"], "udp-rx": ["size=64,1024"],
         "tcp-window": ["window=500,1500"], "energy": ["size=64", "rate=0"],
         "delayed-ack": ["added_ms=0", "window=450"]}
# (held-out cells compared, calibration cells, cells shown as not comparable)
# that the quick subset must produce: published cells at those grid points
QUICK_EXPECT = {"ping_rtt": (2, 2, 0), "ping_rtt_plain": (0, 0, 0), "tcp_window_rtt": (2, 0, 0),
                "tcp_window_segment": (2, 0, 0), "tcp_window_delay": (0, 0, 2), "energy_savings": (1, 0, 0),
                "udp_rx_phases_generic8": (0, 0, 14), "udp_rx_phases_word32": (0, 0, 14),
                "udp_rx_improvement": (0, 0, 4)}
NOT_SCORED = ("value", "range", "approx", "source", "metric")
MARK = re.compile(r"\(([0-9.]+)( calibration)?( MISMATCH \[(\d+|unexplained)\]| trend holds"
                  r"| trend differs \[(\d+|unexplained)\])?\)$")


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def tool(args, timeout):
    return subprocess.run([sys.executable, TOOL] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, stdin=subprocess.DEVNULL, timeout=timeout)


def sections(md):
    """{table id: section text} from the '## caption (id)' headings."""
    out = {}
    parts = re.split(r"^## ", md, flags=re.M)
    for p in parts[1:]:
        m = re.match(r".*\(([A-Za-z0-9_]+)\)\n", p)
        if m:
            out[m.group(1)] = p
    return out


def md_tables(text):
    """The Markdown tables of a section: [[row cells]] each (header first)."""
    tables, cur = [], []
    for line in text.splitlines():
        if line.startswith("|"):
            if not line.startswith("|---"):
                cur.append([c.strip() for c in line.strip().strip("|").split(" | ")])
        elif cur:
            tables.append(cur)
            cur = []
    if cur:
        tables.append(cur)
    return tables


def same(a, b):
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


def close(printed, value):
    """A printed number (4 significant digits) against the exact one."""
    p = float(printed)
    return abs(p - value) <= max(abs(value) * 6e-3, 6e-3)


def expected_frame(t, df):
    """The table's VP values recomputed from results.csv (not by the report code)."""
    metrics = t["metric"] if isinstance(t["metric"], list) else [t["metric"]]
    for k, v in (t.get("where") or {}).items():
        df = df[[same(x, v) for x in df[k]]]
    if t.get("vp_scale") is not None:
        df = df.copy()
        for m in metrics:
            df[m] = df[m] * t["vp_scale"]
    if not t.get("derive"):
        return df, metrics
    kind, der = next(iter(t["derive"].items()))
    keys = [k for k in list(t["rows"]) + ([t["columns"]] if t.get("columns") else []) if k != der["axis"]]
    rows = []
    for vals in {tuple(r[k] for k in keys) for _, r in df.iterrows()}:
        g = df
        for k, v in zip(keys, vals):
            g = g[[same(x, v) for x in g[k]]]
        b = g[[same(x, der["base"]) for x in g[der["axis"]]]].iloc[0]
        o = g[[same(x, der["other"]) for x in g[der["axis"]]]].iloc[0]
        row = dict(zip(keys, vals))
        for m in metrics:
            row[m] = (b[m] - o[m]) / b[m] * 100 if kind == "improvement" else o[m] / b[m]
        rows.append(row)
    return pd.DataFrame(rows), metrics


def expected_ratio(c, vp):
    if "range" in c:
        lo, hi = c["range"]
        return vp / lo if vp < lo else vp / hi if vp > hi else 1.0
    return vp / c["value"]


def check_scored(t, coords, text, vp, c, tally, why):
    """One cell with a published counterpart, by the table's kind."""
    where = f"{t['id']} {coords}"
    if t.get("comparable", True) is False:
        check(text.endswith("(not comparable)") and "MISMATCH" not in text, f"{where}: scored? '{text}'")
        tally["shown"] += 1
        return
    m_ = MARK.search(text)
    check(m_ is not None, f"{where}: no ratio in '{text}'")
    r = expected_ratio(c, vp)
    check(abs(float(m_.group(1)) - r) <= 0.005 + 1e-9, f"{where}: ratio {m_.group(1)}, expected {r:.4f}")
    bad = abs(r - 1) > t.get("tolerance", 0.2)
    cal = any(all(same(coords.get(k), v) for k, v in cc.items())
              for cc in (t.get("calibration") or {}).get("cells") or [])
    check(bool(m_.group(2)) == cal, f"{where}: calibration tag wrong")
    if t.get("kind") == "trend":
        check((m_.group(3) or "").startswith(" trend differs" if bad else " trend holds"), f"{where}: trend mark")
        n = m_.group(5)
    else:
        check(bool(m_.group(3)) == bad, f"{where}: ratio {r:.3f} MISMATCH mark wrong")
        n = m_.group(4)
        tally["calibration" if cal else "compared"] += 1
        tally["mismatch"] += bad
    if bad:
        check(n not in (None, "unexplained"), f"{where}: MISMATCH without an explanation")
        why.add(int(n))


def check_table(t, sec, df):
    """Every cell of every metric table of one section; returns the tally
    (compared, calibration, shown, mismatch) and the explanation numbers used."""
    frame, metrics = expected_frame(t, df)
    tables = md_tables(sec)
    check(len(tables) == len(metrics), f"{t['id']}: {len(tables)} tables in the report, {len(metrics)} metrics")
    cells = t.get("cells") or []
    tally = {"compared": 0, "calibration": 0, "shown": 0, "mismatch": 0}
    why = set()
    col = t.get("columns")
    for m, tab in zip(metrics, tables):
        header, body = tab[0], tab[1:]
        nrow = len(t["rows"])
        check(header[:nrow] == list(t["rows"]), f"{t['id']}: header {header}")
        check(len(body) == len({tuple(r[a] for a in t["rows"]) for _, r in frame.iterrows()}),
              f"{t['id']}.{m}: {len(body)} rows in the report")
        for line in body:
            for j, text in enumerate(line[nrow:]):
                sel, coords = frame, {}
                for a, v in zip(t["rows"], line[:nrow]):
                    sel = sel[[same(x, v) for x in sel[a]]]
                    coords[a] = v
                if col:
                    cv = header[nrow + j].split("=", 1)[1]
                    sel = sel[[same(x, cv) for x in sel[col]]]
                    coords[col] = cv
                check(len(sel) == 1, f"{t['id']}: no CSV row for {coords}")
                vp = float(sel.iloc[0][m])
                first = text.split(" / ")[0]
                check(close(first, vp), f"{t['id']}.{m} {coords}: report says {first}, CSV gives {vp}")
                pub = [c for c in cells if c.get("metric", m) == m and
                       all(same(coords.get(k), v) for k, v in c.items() if k not in NOT_SCORED)]
                if not pub:
                    check(" / " not in text, f"{t['id']} {coords}: a comparison without a published cell")
                    continue
                check_scored(t, coords, text, vp, pub[0], tally, why)
    for n in why:
        check(f"[{n}] " in sec and t["explain"][n - 1]["why"].split()[0] in sec,
              f"{t['id']}: explanation [{n}] not printed")
    return tally


def run_study(args, work, quick):
    dirs = []
    files = list(QUICK) if quick else FILES
    for f in files:
        out = os.path.join(work, f)
        cmd = ["run", os.path.join(STUDY, f + ".yaml"), "--out", out, "--vp", args.vp, "--quiet",
               "--workers", str(args.workers)]
        if args.fw_dir:
            cmd += ["--fw-dir", args.fw_dir]
        for s in (QUICK.get(f, []) if quick else []):
            cmd += ["--subset", s]
        p = tool(cmd, timeout=3000)
        check(p.returncode == 0, f"experiment run {f}: exit {p.returncode}: {p.stderr.strip()[-400:]}")
        dirs.append(out)
    return dirs


def axes(spec):
    return list(spec.get("grid", {})) + [k for z in spec.get("zip", []) for k in z]


def check_fast_uart(args, work, dirs):
    """Every file runs with the fast UART (board.set uart.fast: true), which
    must change no figure: the quick cells of three files again with the
    UART's line time, metric by metric against the study's own results."""
    for f in FILES:
        spec = yaml.safe_load(open(os.path.join(STUDY, f + ".yaml")))
        check(spec.get("board", {}).get("set", {}).get("uart.fast") is True, f"{f}.yaml: no board.set uart.fast: true")
    for f in ("ping-rtt", "udp-rx", "tcp-window"):
        spec = yaml.safe_load(open(os.path.join(STUDY, f + ".yaml")))
        spec["board"]["set"]["uart.fast"] = False
        path = os.path.join(work, f + "-uart-line-time.yaml")
        with open(path, "w") as fh:
            yaml.safe_dump(spec, fh)
        out = path[:-len(".yaml")]
        cmd = ["run", path, "--out", out, "--vp", args.vp, "--quiet", "--workers", str(args.workers)]
        if args.fw_dir:
            cmd += ["--fw-dir", args.fw_dir]
        for sub in QUICK[f]:
            cmd += ["--subset", sub]
        p = tool(cmd, timeout=3000)
        check(p.returncode == 0, f"experiment run {f} without the fast UART: exit {p.returncode}: {p.stderr[-400:]}")
        fast = pd.read_csv(os.path.join(dirs[f], "results.csv"))
        slow = pd.read_csv(os.path.join(out, "results.csv"))
        both = slow.merge(fast, on=axes(spec), suffixes=("_slow", "_fast"))
        check(len(both) == len(slow) > 0, f"{f}: the cells without the fast UART are not in the study's results")
        for m in spec["metrics"]:
            check(both[m + "_slow"].equals(both[m + "_fast"]),
                  f"{f}: metric {m} differs with the fast UART: {both[m + '_fast'].tolist()} "
                  f"(without: {both[m + '_slow'].tolist()})")
        check((both["sim_time_ps_fast"] < both["sim_time_ps_slow"]).all(),
              f"{f}: the fast UART did not shorten the runs (simulated time)")


def check_summary(t, row, tally, quick):
    """The summary row of one table against the cells counted here."""
    check(row[4] == str(tally["compared"]) and row[5] == str(tally["mismatch"]),
          f"{t['id']}: summary says {row[4:6]}, cells give {tally['compared']}, {tally['mismatch']}")
    if t.get("comparable", True) is False:
        check(row[2] == "no (not comparable)" and row[6].startswith("not comparable"), f"{t['id']}: {row}")
    check("UNEXPLAINED" not in row[6], f"{t['id']}: {row[6]}")
    want = QUICK_EXPECT.get(t["id"]) if quick else None
    if want:
        got = (tally["compared"], tally["calibration"], tally["shown"])
        check(got == want, f"{t['id']}: quick subset gives (compared, calibration, shown) {got}, expected {want}"
                           " (published cells dropped or mis-keyed?)")


def check_report(work, dirs, quick):
    md, htm = os.path.join(work, "report.md"), os.path.join(work, "report.html")
    pubfile = os.path.join(STUDY, "published.yaml")
    p = tool(["report"] + dirs + ["--published", pubfile, "--out", md, "--html", htm], timeout=300)
    check(p.returncode == 0, f"report: exit {p.returncode}: {p.stderr.strip()}")
    with open(md) as f:
        text = f.read()
    with open(htm) as f:
        html_text = f.read()
    with open(pubfile) as f:
        pub = yaml.safe_load(f)
    names = {}
    for d in dirs:
        with open(os.path.join(d, "experiment.yaml")) as f:
            names[yaml.safe_load(f)["experiment"]] = d
    secs = sections(text)
    summary = {r[0]: r for r in md_tables(text.split("## Summary", 1)[1].split("\n## ", 1)[0])[0][1:]}
    total_mism = checked = 0
    measured = {"board_timer": "on the board, with its timer", "pc": "from the PC",
                "board_counter": "on the board, by counting", "model": "not measured", "unknown": "not known"}
    check("[unexplained]" not in text, "a MISMATCH or trend without an explanation")
    for t in pub["tables"]:
        check(t["id"] in secs, f"no section for table {t['id']}")
        sec = secs[t["id"]]
        check(f"Published quantity measured {measured[t['measured_with']]}" in sec,
              f"{t['id']}: how the published quantity was measured is not stated")
        check(t["id"] in summary, f"{t['id']}: no summary row")
        if t.get("comparable", True) is False:
            check("Not comparable (shown beside the VP's figures, never scored)" in sec, f"{t['id']}: no reason")
        if t["experiment"] not in names:
            check("was not given" in sec and summary[t["id"]][6] == "not run", f"{t['id']}: missing run not said")
            continue
        df = pd.read_csv(os.path.join(names[t["experiment"]], "results.csv"))
        tally = check_table(t, sec, df)
        check_summary(t, summary[t["id"]], tally, quick)
        check(quick or "match no VP cell" not in sec, f"{t['id']}: published cells that meet no VP value")
        total_mism += tally["mismatch"]
        checked += 1
    check(checked >= 3, f"only {checked} tables had runs")
    check(html_text.count('class="bad"') == len(re.findall(r"MISMATCH \[", text)),
          "HTML and Markdown mark different numbers of mismatches")
    check("data:image/png;base64," in html_text, "HTML embeds no plot")
    imgs = re.findall(r"!\[[^]]*\]\(([^)]+)\)", text)
    check(imgs and all(os.path.exists(os.path.join(work, i)) for i in imgs), "Markdown plots missing")
    check(check_goodput_units(names) >= 1, "no TCP study row to check goodput_mbps against")
    check_bad_input(work, dirs, pub, md)
    return checked, total_mism


# Bytes each connection of the TCP study files sends (their scenarios' bytes).
TCP_BYTES = {"seed-tcp-window": 15000, "seed-tcp-conns": 15000}


def check_goodput_units(names):
    """goodput_mbps is Mbit/s: 8 x all bytes / transfer_ms, recomputed here
    from the other columns of the same rows (and MBps, where present, the
    same in Mbyte/s)."""
    seen = 0
    for exp, nbytes in TCP_BYTES.items():
        if exp not in names:
            continue
        df = pd.read_csv(os.path.join(names[exp], "results.csv"))
        for _, r in df.iterrows():
            total = nbytes * (r["connections"] if "connections" in df.columns else 1)
            want = 8 * total / (r["transfer_ms"] * 1e-3) / 1e6
            check(abs(r["goodput_mbps"] - want) <= want * 1e-6,
                  f"{exp}: goodput_mbps {r['goodput_mbps']} is not 8 x {total} bytes / {r['transfer_ms']} ms "
                  f"= {want} Mbit/s")
            if "MBps" in df.columns:
                check(abs(r["MBps"] * 8 - r["goodput_mbps"]) <= want * 1e-6, f"{exp}: MBps x 8 != goodput_mbps")
            seen += 1
    return seen


def check_bad_input(work, dirs, pub, md):
    """Bad input: one line, exit 2."""
    p = tool(["report", os.path.join(work, "nope"), "--out", md], timeout=60)
    check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, f"bad DIR: {p.returncode} {p.stderr}")
    bad = os.path.join(work, "bad.yaml")
    with open(bad, "w") as f:
        yaml.safe_dump({"tables": [dict(pub["tables"][0], measured_with="guess")]}, f)
    p = tool(["report"] + dirs[:1] + ["--published", bad, "--out", md], timeout=60)
    check(p.returncode == 2 and "measured_with" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
          f"bad published file: {p.returncode} {p.stderr}")
    with open(bad, "w") as f:
        yaml.safe_dump({"tables": [dict(pub["tables"][0], comparable=False)]}, f)
    p = tool(["report"] + dirs[:1] + ["--published", bad, "--out", md], timeout=60)
    check(p.returncode == 2 and "not_comparable" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
          f"not comparable without a reason: {p.returncode} {p.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vp", required=True)
    ap.add_argument("--fw-dir")
    ap.add_argument("--test", choices=("quick", "full"), required=True)
    ap.add_argument("--keep", help="work in this directory and keep it")
    ap.add_argument("--workers", type=int, default=2, help="local Dask workers per sweep (default 2)")
    args = ap.parse_args()
    args.vp = os.path.abspath(args.vp)
    work = args.keep or tempfile.mkdtemp(prefix="l3vp-study-")
    os.makedirs(work, exist_ok=True)
    try:
        dirs = run_study(args, work, args.test == "quick")
        check_fast_uart(args, work, {os.path.basename(d): d for d in dirs})
        n, mism = check_report(work, dirs, args.test == "quick")
        print(f"PASS study.{args.test}: {n} tables checked cell by cell, {mism} published mismatches shown")
        return 0
    except (Fail, subprocess.TimeoutExpired) as e:
        print(f"FAIL study.{args.test}: {e}")
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
