"""The CI gate of cycle-count regression: `scripts/cycles-compare --ci`
(docs/cycles.md "Cycle regression in CI").

    floors = cycles_ci.Floors(tolerance=1.0)
    res = cycles_ci.evaluate(old, new, floors)      # figures of cycles.load
    print(cycles_ci.format_text(res))               # the few lines that matter
    md = cycles_ci.format_markdown(res, "base.json", "new.json")
    res.failed                                      # the gate's answer

Where the full comparison (cycles.compare) judges every figure, the gate
judges each region (and the whole run) once, by a few metrics:

- gate metrics (default cycles and instructions): a region is SLOWER (the
  gate fails) when one of them grew by more than `tolerance` percent AND by
  at least `min_change` (in the metric's unit; for a miss count in the gate,
  by at least `miss_floor` on a base of at least `miss_base`);
- a region that ran the same instructions the same number of times, whose
  cycles moved, was moved by code or data layout (the I-cache and D-cache
  map it differently): "layout", which fails only beyond
  `layout_tolerance` percent;
- a region that fell beyond the floors is "faster": reported, never a
  failure (unless strict);
- cache-miss counts are listed separately, only when they moved by at
  least `miss_floor` misses on a base of at least `miss_base` (a miss more
  in a region of five is +20 % and says nothing);
- a region the new run lacks, or a different stop (reason, exit status),
  always fails.
"""
import math
from dataclasses import dataclass, field

from . import cycles

GATE_DEFAULT = ("cycles", "instructions")
MISS_METRICS = ("icache_misses", "dcache_read_misses")
STOP_METRICS = ("stop_reason", "exit_status")

# Region verdicts of the gate
SLOWER, MISSING, STOP = "SLOWER", "MISSING", "STOP CHANGED"
FASTER, NEW = "faster", "new"
LAYOUT_SLOWER, LAYOUT_FASTER = "slower, layout", "faster, layout"
SMALL_SLOWER, SMALL_FASTER = "slower, under the floors", "faster, under the floors"
SAME = "same"


@dataclass
class Floors:
    """The gate's rules; every field is a cycles-compare option."""
    tolerance: float = 1.0          # percent (--tolerance)
    min_change: int = 50            # cycles, instructions (--min-change)
    layout_tolerance: float = 10.0   # percent, same instructions (--layout-tolerance)
    miss_floor: int = 10            # misses (--miss-floor)
    miss_base: int = 100            # misses (--miss-base)
    gate: tuple = GATE_DEFAULT      # metrics (--gate)
    strict: bool = False            # faster fails too (--strict)

    def describe(self):
        """One line: the rules in force, with the options that set them."""
        g = ", ".join(self.gate)
        s = (f"gate: {g} growing by more than {self.tolerance:g} % and at least {self.min_change}"
             f" (--gate, --tolerance, --min-change); same instructions, cycles moved by code layout:"
             f" fails beyond {self.layout_tolerance:g} % (--layout-tolerance); misses shown from a change"
             f" of {self.miss_floor} on a base of {self.miss_base} (--miss-floor, --miss-base)")
        return s + ("; strict: faster fails too" if self.strict else "")


@dataclass
class Region:
    """The gate's verdict on one region (or on the whole run)."""
    key: object                     # region id, or cycles.RUN
    label: str
    old: dict
    new: dict
    verdict: str = SAME
    fails: bool = False
    why: list = field(default_factory=list)   # "cycles +3538 (+7.06%)"

    def row(self, metric):
        return cycles.Row(self.label, metric, (self.old or {}).get(metric), (self.new or {}).get(metric), None)


@dataclass
class Result:
    regions: list                   # the changed regions, failing first, then by |cycles %|
    run: object                     # Region of the whole run (the totals); None if not compared
    misses: list                    # cycles.Row of miss counts beyond the floors
    floors: Floors

    @property
    def failed(self):
        return any(r.fails for r in self._all())

    def _all(self):
        return self.regions + ([self.run] if self.run else [])


def _beyond(row, floors):
    """Did this figure move beyond the floors? (a miss count by its own)"""
    d = row.change
    if not d or row.old is None:
        return False
    if row.metric in MISS_METRICS:
        return abs(d) >= floors.miss_floor and row.old >= floors.miss_base \
            and abs(row.percent) > floors.tolerance
    return abs(row.percent) > floors.tolerance and abs(d) >= floors.min_change


def _same_path(o, n):
    """The same instructions, as often: only timing (layout, caches) moved."""
    return o.get("instructions") is not None and o.get("instructions") == n.get("instructions") \
        and o.get("entries") == n.get("entries")


def _judge(reg, floors):
    """Set reg.verdict, reg.fails and reg.why from its figures."""
    o, n = reg.old, reg.new
    if o is None or n is None:
        reg.verdict, reg.fails = (NEW, floors.strict) if o is None else (MISSING, True)
        return reg
    stops = [reg.row(m) for m in STOP_METRICS if o.get(m) != n.get(m)]
    if stops:
        reg.verdict, reg.fails = STOP, True
        reg.why = [f"{r.metric} {cycles._fmt_val(r.old)} -> {cycles._fmt_val(r.new)}" for r in stops]
        return reg
    rows = [reg.row(m) for m in floors.gate if reg.row(m).change]
    up = [r for r in rows if r.change > 0 and _beyond(r, floors)]
    down = [r for r in rows if r.change < 0 and _beyond(r, floors)]
    reg.why = ["%s %+d (%s)" % (r.metric, r.change, cycles._fmt_pct(r.percent)) for r in (up or down)]
    layout = _same_path(o, n)
    if up:
        worst = max(abs(r.percent) for r in up)
        if layout and worst <= floors.layout_tolerance:
            reg.verdict = LAYOUT_SLOWER
        else:
            reg.verdict, reg.fails = SLOWER, True
            if layout:
                reg.why.append(f"same instructions, beyond --layout-tolerance {floors.layout_tolerance:g} %")
    elif down:
        reg.verdict, reg.fails = (LAYOUT_FASTER if layout else FASTER), floors.strict
    elif rows:
        c = reg.row("cycles").change or rows[0].change
        reg.verdict = SMALL_SLOWER if c > 0 else SMALL_FASTER
    return reg


def _misses(key_label, o, n, floors):
    out = []
    for m in MISS_METRICS:
        if m in floors.gate:
            continue
        r = cycles.Row(key_label, m, (o or {}).get(m), (n or {}).get(m), None)
        if r.old is not None and r.new is not None and _beyond(r, floors):
            out.append(r)
    return out


def _cycles_pct(reg):
    p = reg.row("cycles").percent
    return 0.0 if p is None else abs(p) if not math.isinf(p) else 1e300


def evaluate(old, new, floors=None, regions=None):
    """The gate over two figure sets (cycles.load). regions: a set from
    cycles.resolve_regions (None: all; cycles.RUN for the whole run)."""
    floors = floors or Floors()
    run = None
    if regions is None or cycles.RUN in regions:
        run = _judge(Region(cycles.RUN, "(run)", old["run"], new["run"]), floors)
    regs, misses = [], []
    for rid in sorted(set(old["regions"]) | set(new["regions"])):
        if regions is not None and rid not in regions:
            continue
        o, n = old["regions"].get(rid), new["regions"].get(rid)
        name = (n or {}).get("name") or (o or {}).get("name")
        reg = _judge(Region(rid, cycles.label(rid, name), o, n), floors)
        misses += _misses(reg.label, o, n, floors)
        if reg.verdict != SAME:
            regs.append(reg)
    if regions is None or cycles.RUN in regions:
        misses += _misses("(run)", old["run"], new["run"], floors)
    regs.sort(key=lambda r: (not r.fails, -_cycles_pct(r), r.label))
    return Result(regs, run, misses, floors)


def headline(res):
    """The first line: the verdict, and the region that decided it."""
    bad = [r for r in res._all() if r.fails]
    if bad:
        r = bad[0]
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        what = {MISSING: "missing in the new run", NEW: "only in the new run"}.get(r.verdict)
        detail = what or ", ".join(r.why) or r.verdict
        return f"REGRESSION: {r.label} {r.verdict}: {detail}{more}"
    order = (FASTER, LAYOUT_FASTER, LAYOUT_SLOWER, SMALL_SLOWER, SMALL_FASTER, NEW)
    n = [(sum(r.verdict == v for r in res.regions), v) for v in order]
    parts = [f"{k} {v}" for k, v in n if k]
    return "OK: no region slower beyond the floors" + (f" (regions: {'; '.join(parts)})" if parts else "")


def _cells(reg):
    c, i = reg.row("cycles"), reg.row("instructions")

    def ch(r):
        return "" if r.change is None else "%+d" % r.change

    return (reg.label, cycles._fmt_val(c.old), cycles._fmt_val(c.new), ch(c), cycles._fmt_pct(c.percent),
            ch(i), cycles._fmt_pct(i.percent) if i.change else "", reg.verdict)


HEAD = ("region", "cycles old", "new", "change", "%", "instructions", "%", "verdict")


def _shown(res, max_regions):
    regs = res.regions if max_regions is None else res.regions[:max_regions]
    return regs, len(res.regions) - len(regs)


def format_text(res, max_regions=12):
    """The --ci report: headline, regions by cycles change, totals, misses,
    the rules in force."""
    regs, left = _shown(res, max_regions)
    totals = [res.run] if res.run else []
    cells = [HEAD] + [_cells(r) for r in regs + totals]
    w = [max(len(c[i]) for c in cells) for i in range(len(HEAD))]
    lines = [headline(res)]
    for c in cells:
        lines.append("  ".join([c[0].ljust(w[0])] + [c[i].rjust(w[i]) for i in range(1, 7)] + [c[7]]).rstrip())
    if left:
        lines.insert(len(lines) - len(totals), f"... {left} more regions moved less (the full table: without --ci)")
    if res.misses:
        lines.append("cache misses beyond the floors (reported, not gated):")
        lines += ["  " + _miss_text(r) for r in res.misses]
    lines.append(res.floors.describe())
    return "\n".join(lines)


def _miss_text(r):
    return f"{r.region} {r.metric} {r.old} -> {r.new} ({r.change:+d}, {cycles._fmt_pct(r.percent)})"


def format_markdown(res, base_name, new_name, max_regions=12):
    """The same report for a pull request (GitHub-flavoured Markdown)."""
    regs, left = _shown(res, max_regions)
    mark = "REGRESSION" if res.failed else "OK"
    out = [f"### Cycle counts: {headline(res)}", "",
           f"`{base_name}` → `{new_name}` ({'exit 1' if res.failed else 'exit 0'}: {mark})", "",
           "| " + " | ".join(HEAD) + " |", "|:--" + "|--:" * 6 + "|:--|"]
    for reg in regs + ([res.run] if res.run else []):
        c = list(_cells(reg))
        c[0] = f"`{c[0]}`" if reg is not res.run else "**whole run**"
        if reg.fails:
            c[7] = f"**{c[7]}**"
        out.append("| " + " | ".join(c) + " |")
    if left:
        out += ["", f"{left} more regions moved less (the full table: `cycles-compare` without `--ci`)."]
    if res.misses:
        out += ["", "Cache misses (reported, not gated): " + "; ".join(_miss_text(r) for r in res.misses) + "."]
    out += ["", f"<sub>{res.floors.describe()}</sub>", ""]
    return "\n".join(out)
