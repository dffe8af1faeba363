"""Metrics: named dotted paths into a run's outputs.

    stats.<path>   leon3vp's --stats JSON (docs/stats-schema.md)
    net.<path>     the simulated host's results JSON (docs/network.md)
    uart.<type>... the firmware's JSON result lines of that type, a list
                   (a topology run: uart.<board>.<type>...)

A metric is one path, or `sum` of several paths, optionally divided by the
value at `per` (a total per packet) or by a number, and multiplied by
`scale`. A `diff` metric is the difference of two runs of the grid (the
runs at two values of one axis, every other axis equal): numerator and
`per` value are subtracted before the division, so whatever both runs
share (boot, ARP, warm-up packets) drops out (diff_values).

A step `*` adds up what the rest of the path finds in every element of a
list or every value of an object (stats.hosts.pc.experiments.*.received).
A path step into an object takes the key; into a list, an index (0, 1, ...)
or the element whose "name" (scenario experiments) or "id" (regions, also
as 0x... hex) matches: net.experiments.ping.rtt_avg_ps,
stats.regions.0x50480001.cycles, uart.phases.0.rx. Metrics are computed
from the stored raw outputs when the table is written, so adding a metric
to a file needs no rerun.
"""
import re
from decimal import Decimal


class MetricError(Exception):
    pass


def _match_id(elem, key):
    if not isinstance(elem, dict):
        return False
    if elem.get("name") == key:
        return True
    ident = elem.get("id")
    if isinstance(ident, int) and not isinstance(ident, bool):
        try:
            return ident == int(key, 0)
        except ValueError:
            return False
    return ident is not None and str(ident) == key


def lookup(doc, path):
    """The value at a dotted path, or raise KeyError naming the first
    step that is missing."""
    cur = doc
    steps = path.split(".")
    for i, k in enumerate(steps):
        if isinstance(cur, dict) and k in cur:
            cur = cur[k]
        elif isinstance(cur, list):
            if re.fullmatch(r"\d+", k) and int(k) < len(cur):
                cur = cur[int(k)]
            else:
                hit = [e for e in cur if _match_id(e, k)]
                if not hit:
                    raise KeyError(".".join(steps[:i + 1]))
                cur = hit[0]
        else:
            raise KeyError(".".join(steps[:i + 1]))
    return cur


def lookup_sum(doc, path):
    """lookup(), where a step `*` takes every element of a list or every
    value of an object and the values found are added (the datagrams a
    host received from however many boards the grid gives it:
    stats.hosts.pc.experiments.*.received). KeyError when nothing matches
    or a step below `*` is missing in some element; ValueError for a value
    that is not a number."""
    head, sep, rest = path.partition(".*")
    if not sep:
        return lookup(doc, path)
    cur = lookup(doc, head) if head else doc
    elems = list(cur.values()) if isinstance(cur, dict) else cur if isinstance(cur, list) else None
    if not elems:
        raise KeyError(head + ".*")
    total = 0
    for e in elems:
        v = lookup_sum(e, rest[1:]) if rest else e
        if not _is_number(v):
            raise ValueError(f"{path}: {v!r} is not a number")
        total += v
    return total


def expand_schema_key(key):
    """A key of `leon3vp --list-stats` as dotted paths: `a.{b,c}` -> a.b,
    a.c; `regions[].cycles` -> regions.*.cycles (any element)."""
    m = re.search(r"\{([^{}]*)\}", key)
    if m:
        return [k for alt in m.group(1).split(",")
                for k in expand_schema_key(key[:m.start()] + alt.strip() + key[m.end():])]
    return [key.replace("[]", ".*")]


def in_schema(path, keys):
    """Whether a --stats path (without "stats.") can exist by the schema
    keys [[key, type]]: it names a key or lies on the way to one, or goes
    into a free-form object or array the schema does not detail."""
    steps = path.split(".")
    detailed = {k.rsplit(".", 1)[0] for k, _ in keys if "." in k}
    for key, typ in keys:
        ks = key.split(".")
        n = min(len(ks), len(steps))
        if not all(k in ("*", s) for k, s in zip(ks[:n], steps[:n])):
            continue
        if len(steps) <= len(ks):
            return True
        # config, fw_params, net.results: objects whose keys the schema does not list
        if typ.startswith(("object", "array", "[")) and not any(
                d == key or d.startswith(key + ".") for d in detailed):
            return True
    return False


def sources(result):
    """The document metric paths start from."""
    uart = {}
    for line in result.get("uart_lines") or []:
        uart.setdefault(line.get("type"), []).append(line)
    for board, lines in (result.get("uart_boards") or {}).items():   # a topology run: uart.BOARD.TYPE
        for line in lines:
            uart.setdefault(board, {}).setdefault(line.get("type"), []).append(line)
    return {"stats": result.get("stats") or {}, "net": result.get("net") or {}, "uart": uart}


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _lookup_all(m, doc):
    """[(path, value)] of the metric's paths and its per path; None when
    an optional metric lacks one. MetricError names the metric, its path
    and the first missing step."""
    paths = m.paths + ([m.per_path] if m.per_path else [])
    out = []
    for p in paths:
        try:
            out.append((p, lookup_sum(doc, p)))
        except KeyError as e:
            if m.optional:
                return None
            raise MetricError(f"metric {m.name}: {p}: no {e.args[0]} in the run's outputs") from None
        except ValueError as e:
            raise MetricError(f"metric {m.name}: {e}") from None
    for p, v in out:
        if isinstance(v, (dict, list)):
            raise MetricError(f"metric {m.name}: {p} is an {'object' if isinstance(v, dict) else 'array'}, "
                              "not a value")
    return out


def _arithmetic(m):
    return any(".*" in p for p in m.paths) or len(m.paths) > 1 or m.per is not None or m.scale is not None or m.diff is not None


def terms(m, doc):
    """(numerator, per value) of one run as Decimals: the sum of the paths
    and the per path's value (None without a per path); None for an empty
    cell (an optional metric's missing path, a null value)."""
    found = _lookup_all(m, doc)
    if found is None or any(v is None for _, v in found):
        return None
    for p, v in found:
        if not _is_number(v):
            what = "scale" if len(m.paths) == 1 and m.per is None and m.diff is None else "sum/per/diff"
            raise MetricError(f"metric {m.name}: {p} = {v!r} is not a number ({what})")
    # exact decimal arithmetic, then the nearest float: 149115000 ps
    # x 1e-6 gives 149.115, not 149.11499999999998
    vals = [Decimal(v) for _, v in found]
    num = sum(vals[:len(m.paths)])
    return num, (vals[-1] if m.per_path else None)


def finish(m, num, per):
    """The metric's value from its numerator and per value: divided by the
    per value (or the number `per`), then scaled; None (an empty cell)
    when there is nothing to divide by."""
    div = per if m.per_path else (Decimal(repr(m.per)) if m.per is not None else None)
    v = num
    if div is not None:
        if div == 0:
            return None  # nothing to divide by (no packet): an empty cell, not an error
        v = v / div
    if m.scale is not None:
        v = v * Decimal(repr(m.scale))
    return float(v)


def extract(metrics, result):
    """{metric name: value} (None for a missing optional one, and for a
    diff metric, which needs two runs: diff_values). Raises MetricError
    naming the metric and the missing step; a diff metric's paths are
    checked here too."""
    doc = sources(result)
    out = {}
    for m in metrics:
        if not _arithmetic(m):
            found = _lookup_all(m, doc)
            out[m.name] = None if found is None else found[0][1]
            continue
        t = terms(m, doc)
        out[m.name] = None if t is None or m.diff is not None else finish(m, *t)
    return out


def diff_values(m, runs):
    """The values of diff metric m for runs [(params, terms or None)] in
    table order: the run at axis = a gets terms(a) - terms(b) of the run at
    axis = b with all other axes equal, then finish(); every other run,
    and a run whose partner is missing or failed, gets None."""
    axis, a, b = m.diff

    def others(params):
        return tuple(sorted((k, repr(v)) for k, v in params.items() if k != axis))

    partners = {others(p): t for p, t in runs if p.get(axis) == b}
    out = []
    for params, t in runs:
        partner = partners.get(others(params)) if params.get(axis) == a else None
        if t is None or partner is None:
            out.append(None)
            continue
        num = t[0] - partner[0]
        per = t[1] - partner[1] if m.per_path else None
        out.append(finish(m, num, per))
    return out
