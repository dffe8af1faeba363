"""Cycle-count regression: per-run and per-region figures of a leon3vp run,
their goldens and the comparison table (docs/cycles.md).

    figs = cycles.figures(stats, names)          # from a --stats dict
    figs = cycles.load(path)                     # a --stats file or a golden
    rows = cycles.compare(old, new, tolerance=2.0)
    print(cycles.format_table(rows))
    cycles.failed(rows)                          # a regression?

Figures are {"run": {metric: value}, "regions": {id: {"name": str|None,
metric: value}}}. Regions are matched by id (the names are for people:
the ELF's section .l3vp.regions, firmware/bsp/region.h), so a golden with
names compares with a bare --stats file.

Every metric has a kind that says what a change means:
  cost   more is worse (instructions, cycles, misses, stalls, energy): an
         increase beyond the tolerance is a regression, a decrease an
         improvement;
  info   neither better nor worse (idle cycles, entries, end time): shown,
         a failure only with strict;
  check  must not change at all (how the run stopped): any change fails.
"""
import json
import math
import os
import struct
import subprocess
import tempfile

from .elf import Elf
from .results import stats_get

GOLDEN_FORMAT = "leon3vp-cycles/1"
RUN = "run"  # the pseudo-region of the whole-run figures

COST, INFO, CHECK = "cost", "info", "check"
STALLS = ("load_use", "branch", "muldiv", "icache_miss", "dcache_miss", "write_buffer", "bus")

# (metric, kind, path in the --stats dict) for the whole run ...
RUN_METRICS = [
    ("stop_reason", CHECK, "stop.reason"),
    ("exit_status", CHECK, "stop.exit_status"),
    ("sim_time_ps", INFO, "sim_time_ps"),
    ("instructions", COST, "instructions.total"),
    ("cycles", COST, "cycles"),
    ("idle_cycles", INFO, "idle_cycles"),
    ("icache_misses", COST, "timing.icache.misses"),
    ("dcache_read_misses", COST, "timing.dcache.read_misses"),
    ("traps", COST, "traps"),
] + [("stalls." + s, COST, "timing.stalls." + s) for s in STALLS] + [
    ("energy_fj", COST, "energy.total_fj"),
    ("cpu_energy_fj", COST, "energy.cpu_fj"),
]
# ... and in a regions[] record. A region's energy is the CPU's (as
# energy.cpu_fj): the same metric name means the same thing at both levels.
REGION_METRICS = [
    ("entries", INFO, "entries"),
    ("instructions", COST, "instructions"),
    ("cycles", COST, "cycles"),
    ("idle_cycles", INFO, "idle_cycles"),
    ("icache_misses", COST, "icache_misses"),
    ("dcache_read_misses", COST, "dcache_misses"),
    ("traps", COST, "traps"),
] + [("stalls." + s, COST, "stalls." + s) for s in STALLS] + [
    ("cpu_energy_fj", COST, "energy_fj"),
]
KIND = {m: k for m, k, _ in RUN_METRICS + REGION_METRICS}
# Table order: how the run stopped and how often a region ran come first.
METRIC_ORDER = {m: i for i, m in enumerate(dict.fromkeys(
    ["stop_reason", "exit_status", "sim_time_ps", "entries"] + [m for m, _, _ in RUN_METRICS + REGION_METRICS]))}

NAME_RECORD = struct.Struct(">I60s")  # firmware/bsp/region.h struct region_name_rec


def region_names(elf_path):
    """{region id: name} from the ELF's section .l3vp.regions (64-byte
    records: big-endian u32 id, NUL-terminated name); {} without one.
    ValueError for a file that is not an ELF or a malformed section."""
    with Elf(elf_path) as e:
        sec = e.elf.get_section_by_name(".l3vp.regions")
        if sec is None:
            return {}
        data = sec.data()
    if len(data) % NAME_RECORD.size:
        raise ValueError(f"{elf_path}: section .l3vp.regions is {len(data)} bytes, "
                         f"not a multiple of {NAME_RECORD.size}")
    out = {}
    for rid, raw in NAME_RECORD.iter_unpack(data):
        out[rid] = raw.split(b"\0", 1)[0].decode("ascii", "replace")
    return out


def figures(stats, names=None):
    """The figures of a --stats dict; names: {id: name} (region_names)."""
    if not isinstance(stats, dict) or not isinstance(stats.get("cycles"), int) \
            or not isinstance(stats.get("regions"), list):
        raise ValueError("not a leon3vp --stats file (no \"cycles\" and \"regions\")")
    run = {}
    for m, _, path in RUN_METRICS:
        v = stats_get(stats, path)
        if v is not None:
            run[m] = v
    regs = {}
    for r in stats["regions"]:
        if not isinstance(r, dict) or not isinstance(r.get("id"), int):
            raise ValueError("--stats regions[]: a record without an integer id")
        rec = {"name": (names or {}).get(r["id"])}
        for m, _, path in REGION_METRICS:
            v = stats_get(r, path)
            if v is not None:
                rec[m] = v
        regs[r["id"]] = rec
    return {"run": run, "regions": regs}


def label(rid, name=None):
    """How a region is shown: its name, else its id in hex."""
    return name if name else "0x%08x" % rid


def to_golden(figs, command=None, program=None):
    """A golden (JSON-ready dict): regions keyed by their label, each with its id."""
    g = {"format": GOLDEN_FORMAT}
    if program is not None:
        g["program"] = program
    if command is not None:
        g["command"] = command
    g["run"] = dict(figs["run"])
    regs = {}
    for rid in sorted(figs["regions"]):
        rec = figs["regions"][rid]
        regs[label(rid, rec.get("name"))] = {"id": rid, **{k: v for k, v in rec.items() if k != "name"}}
    g["regions"] = regs
    return g


def from_golden(g):
    """The figures of a golden dict (ValueError if malformed)."""
    if not isinstance(g, dict) or g.get("format") != GOLDEN_FORMAT:
        raise ValueError(f"not a cycles golden (\"format\": \"{GOLDEN_FORMAT}\")")
    if not isinstance(g.get("run"), dict) or not isinstance(g.get("regions"), dict):
        raise ValueError("cycles golden without \"run\" and \"regions\" objects")
    regs = {}
    for key, rec in g["regions"].items():
        if not isinstance(rec, dict) or not isinstance(rec.get("id"), int):
            raise ValueError(f"cycles golden: region {key!r} without an integer id")
        name = None if key == "0x%08x" % rec["id"] else key
        regs[rec["id"]] = {"name": name, **{k: v for k, v in rec.items() if k != "id"}}
    return {"run": dict(g["run"]), "regions": regs}


def _is_run_record(d):
    """A run record of scripts/experiment (DIR/runs/<id>.json)."""
    return isinstance(d, dict) and isinstance(d.get("result"), dict) and "spec" in d


def _record_region_names(rec):
    """Region names of a run record's ELF (the record's elf_file, a built
    or a prebuilt `elf:` file) if it is still the ELF that ran; {} else."""
    path = rec.get("elf_file")
    want = ((rec["result"].get("stats") or {}).get("version") or {}).get("firmware_hash")
    if not path or not want:
        return {}
    try:
        with open(path, "rb") as f:
            data = f.read()
        if _fnv1a64(data) != want:
            return {}  # rebuilt since: its names may not match the run's ids
        return region_names(path)
    except (OSError, ValueError):
        return {}


def _fnv1a64(data):
    from .experiment.firmware import fnv1a64
    return fnv1a64(data)


def load(path, names=None):
    """Figures from a --stats file, a golden or a run record of
    scripts/experiment (its --stats; region names from its ELF when that
    is unchanged); ValueError/OSError with a one-line message naming the
    file."""
    try:
        with open(path) as f:
            d = json.load(f)
    except OSError as e:
        raise OSError(f"{path}: {e.strerror or e}") from None
    except ValueError as e:
        raise ValueError(f"{path}: not valid JSON ({e})") from None
    try:
        if isinstance(d, dict) and "format" in d:
            figs = from_golden(d)
        elif _is_run_record(d):
            names = names or _record_region_names(d)
            figs = figures(d["result"].get("stats"), names)
        else:
            figs = figures(d, names)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    if names:
        for rid, rec in figs["regions"].items():
            rec["name"] = rec.get("name") or names.get(rid)
    return figs


class Row:
    """One line of the table: a metric of a region in both figure sets."""

    def __init__(self, region, metric, old, new, verdict):
        self.region, self.metric, self.old, self.new, self.verdict = region, metric, old, new, verdict

    @property
    def change(self):
        if _num(self.old) and _num(self.new):
            return self.new - self.old
        return None

    @property
    def percent(self):
        d = self.change
        if d is None:
            return None
        if self.old == 0:
            return 0.0 if d == 0 else math.copysign(math.inf, d)
        return 100.0 * d / abs(self.old)

    def as_dict(self):
        return {"region": self.region, "metric": self.metric, "old": self.old, "new": self.new,
                "change": self.change, "percent": self.percent, "verdict": self.verdict}


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# Verdicts. "same" rows are left out of the table unless asked for.
SAME, WITHIN, REGRESSION, IMPROVEMENT, CHANGED, MISSING, NEW = (
    "same", "within tolerance", "REGRESSION", "improvement", "changed", "MISSING", "new")


def _verdict(metric, old, new, tolerance):
    if old is None:
        return NEW
    if new is None:
        return MISSING
    if old == new:
        return SAME
    kind = KIND.get(metric, INFO)
    if kind == CHECK or not (_num(old) and _num(new)):
        return REGRESSION if kind == CHECK else CHANGED
    pct = Row(None, metric, old, new, None).percent
    if abs(pct) <= tolerance:
        return WITHIN
    if kind == INFO:
        return CHANGED
    return REGRESSION if new > old else IMPROVEMENT


def resolve_regions(figs_list, wanted):
    """Region selectors (names, hex or decimal ids, "run") -> the set of
    keys (ids, or RUN) they denote in any of the figure sets; ValueError
    naming a selector that matches nothing."""
    out = set()
    for w in wanted:
        w = w.strip()
        if w in (RUN, "(run)"):
            out.add(RUN)
            continue
        hits = {rid for f in figs_list for rid, rec in f["regions"].items() if rec.get("name") == w}
        if not hits:
            try:
                rid = int(w, 0)
            except ValueError:
                rid = None
            if rid is not None and any(rid in f["regions"] for f in figs_list):
                hits = {rid}
        if not hits:
            raise ValueError(f"--regions: no region {w!r} in either file")
        out |= hits
    return out


def compare(old, new, tolerance=0.0, regions=None, metrics=None):
    """Rows for every (region, metric) of either figure set, the whole run
    first, then regions by id. regions: a set from resolve_regions (None =
    all); metrics: metric names (None = all). tolerance in percent."""
    keys = [RUN] + sorted(set(old["regions"]) | set(new["regions"]))
    rows = []
    for key in keys:
        if regions is not None and key not in regions:
            continue
        if key == RUN:
            o, n, name = old["run"], new["run"], "(run)"
        else:
            o, n = old["regions"].get(key), new["regions"].get(key)
            nm = (n or {}).get("name") or (o or {}).get("name")
            name = label(key, nm)
            if o is None or n is None:  # a region that only one run has
                if metrics is None or "cycles" in metrics:
                    rows.append(Row(name, "cycles", (o or {}).get("cycles"), (n or {}).get("cycles"),
                                    NEW if o is None else MISSING))
                continue
        ms = [m for m in sorted(set(o) | set(n), key=lambda m: (METRIC_ORDER.get(m, 999), m)) if m != "name"]
        for m in ms:
            if metrics is not None and m not in metrics:
                continue
            rows.append(Row(name, m, o.get(m), n.get(m), _verdict(m, o.get(m), n.get(m), tolerance)))
    return rows


def failed(rows, strict=False):
    """A regression (or a lost region/metric, or a changed stop); with
    strict, any change beyond the tolerance, improvements included."""
    bad = {REGRESSION, MISSING}
    if strict:
        bad |= {IMPROVEMENT, CHANGED, NEW}
    return any(r.verdict in bad for r in rows)


def _fmt_val(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return "%.6g" % v
    return str(v)


def _fmt_pct(p):
    if p is None:
        return ""
    if math.isinf(p):
        return "+inf%" if p > 0 else "-inf%"
    if p and abs(p) < 0.1:  # small but not zero: keep three significant digits
        return "%+.3g%%" % p
    return "%+.2f%%" % p


def format_table(rows, all_rows=False, max_rows=None):
    """The table people read: region, metric, old, new, change, %, verdict.
    Unchanged rows only with all_rows; at most max_rows rows (a last line
    says how many were left out)."""
    shown = [r for r in rows if all_rows or r.verdict != SAME]
    left_out = 0
    if max_rows is not None and len(shown) > max_rows:
        left_out = len(shown) - max_rows
        shown = shown[:max_rows]
    head = ("region", "metric", "old", "new", "change", "%", "")
    cells = [head]
    for r in shown:
        ch = r.change
        cells.append((r.region, r.metric, _fmt_val(r.old), _fmt_val(r.new),
                      "" if ch is None else "%+d" % ch if isinstance(ch, int) else "%+.6g" % ch,
                      _fmt_pct(r.percent), "" if r.verdict == SAME else r.verdict))
    if len(cells) == 1:
        return "(no differences)"
    w = [max(len(c[i]) for c in cells) for i in range(len(head))]
    lines = []
    for c in cells:
        lines.append("  ".join([c[0].ljust(w[0]), c[1].ljust(w[1])]
                               + [c[i].rjust(w[i]) for i in range(2, 6)] + [c[6]]).rstrip())
    if left_out:
        lines.append(f"... {left_out} more rows")
    return "\n".join(lines)


def hotspots(rows, metric, n=3):
    """The regions whose `metric` changed most (by |%|), as one line:
    "net.ipchk +284 (+7.83%), ..."; "" if none changed. Where a slowdown
    sits: cache-layout shifts move every region's cycles a little, a new
    loop moves the instructions of its own region (and of the regions
    around it) only."""
    ch = [r for r in rows if r.metric == metric and r.region != "(run)" and r.change]
    ch.sort(key=lambda r: (-abs(r.percent), r.region))
    return ", ".join("%s %+d (%s)" % (r.region, r.change, _fmt_pct(r.percent)) for r in ch[:n])


def summary(rows):
    """One line: how many rows changed, by verdict."""
    n = {}
    for r in rows:
        n[r.verdict] = n.get(r.verdict, 0) + 1
    regions = len({r.region for r in rows if r.region != "(run)"})
    where = [f"{regions} region" + ("" if regions == 1 else "s")] if regions else []
    if any(r.region == "(run)" for r in rows):
        where.insert(0, "the whole run")
    where = " and ".join(where) or "nothing"
    parts = [f"{n[v]} {v}" for v in (REGRESSION, MISSING, IMPROVEMENT, CHANGED, NEW, WITHIN) if n.get(v)]
    return f"{len(rows)} figures of {where}: " + (", ".join(parts) or "all identical")


# ---- goldens of the regression set (testbenches/cycles) --------------------

def golden_argv(vp, fw_dir, golden_dir, command, stats_path, uart_path):
    """leon3vp's argv for a golden's "command" block: elf (in fw_dir),
    scenario (relative to golden_dir), fw_params, energy, mode, max_time."""
    argv = [vp, "-q", "--stats", stats_path, "--uart-out", uart_path]
    if command.get("scenario"):
        argv += ["--scenario", os.path.join(golden_dir, command["scenario"])]
    if command.get("energy"):
        argv += ["--energy", command["energy"]]
    if command.get("mode"):
        argv += ["--mode", command["mode"]]
    if command.get("max_time"):
        argv += ["--max-time", command["max_time"]]
    for k, v in (command.get("fw_params") or {}).items():
        argv += ["--fw-param", f"{k}={v}"]
    argv.append(os.path.join(fw_dir, command["elf"]))
    return argv


def run_golden(vp, fw_dir, golden_path, timeout=300):
    """Run what a golden's "command" says; returns (golden dict, new
    figures). RuntimeError with one line if leon3vp writes no --stats."""
    try:
        with open(golden_path) as f:
            g = json.load(f)
    except OSError as e:
        raise OSError(f"{golden_path}: {e.strerror or e}") from None
    except ValueError as e:
        raise ValueError(f"{golden_path}: not valid JSON ({e})") from None
    cmd = g.get("command") if isinstance(g, dict) else None
    if not isinstance(cmd, dict) or not isinstance(cmd.get("elf"), str):
        raise ValueError(f"{golden_path}: no \"command\" with an \"elf\"")
    elf = os.path.join(fw_dir, cmd["elf"])
    with tempfile.TemporaryDirectory(prefix="l3vp-cycles-") as tmp:
        argv = golden_argv(vp, fw_dir, os.path.dirname(os.path.abspath(golden_path)), cmd,
                           os.path.join(tmp, "stats.json"), os.path.join(tmp, "uart.txt"))
        try:
            p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"leon3vp did not finish within {timeout} s: {' '.join(argv)}") from None
        except OSError as e:
            raise RuntimeError(f"cannot run {vp}: {e}") from None
        try:
            with open(os.path.join(tmp, "stats.json")) as f:
                stats = json.load(f)
        except (OSError, ValueError):
            err = (p.stderr.decode("utf-8", "replace").strip().splitlines() or ["(no message)"])[-1]
            raise RuntimeError(f"leon3vp wrote no --stats (exit {p.returncode}): {err}") from None
    return g, figures(stats, region_names(elf))
