"""Metrics: named dotted paths into a run's outputs.

    stats.<path>   leon3vp's --stats JSON (docs/stats-schema.md)
    net.<path>     the simulated host's results JSON (docs/network.md)
    uart.<type>... the firmware's JSON result lines of that type, a list

A metric is one path, or `sum` of several paths, optionally divided by the
value at `per` (a total per packet) and multiplied by `scale`.

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


def sources(result):
    """The document metric paths start from."""
    uart = {}
    for line in result.get("uart_lines") or []:
        uart.setdefault(line.get("type"), []).append(line)
    return {"stats": result.get("stats") or {}, "net": result.get("net") or {}, "uart": uart}


def extract(metrics, result):
    """{metric name: value} (None for a missing optional one). Raises
    MetricError naming the metric and the missing step."""
    doc = sources(result)
    out = {}
    for m in metrics:
        try:
            parts = [lookup(doc, p) for p in m.paths]
            per = lookup(doc, m.per) if m.per is not None else None
        except KeyError as e:
            if m.optional:
                out[m.name] = None
                continue
            raise MetricError(f"metric {m.name}: {e.args[0]} not found in the run's outputs") from None
        for p, v in zip(m.paths + [m.per], parts + [per]):
            if isinstance(v, (dict, list)):
                raise MetricError(f"metric {m.name}: {p} is an {'object' if isinstance(v, dict) else 'array'}, "
                                  "not a value")
        arith = len(parts) > 1 or m.per is not None or m.scale is not None
        if not arith:
            out[m.name] = parts[0]
            continue
        if any(v is None for v in parts) or (m.per is not None and per is None):
            out[m.name] = None
            continue
        for p, v in zip(m.paths + [m.per], parts + [per]):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                what = "scale" if len(parts) == 1 and m.per is None else "sum/per"
                raise MetricError(f"metric {m.name}: {p} = {v!r} is not a number ({what})")
        # exact decimal arithmetic, then the nearest float: 149115000 ps
        # x 1e-6 gives 149.115, not 149.11499999999998
        v = sum(Decimal(x) for x in parts)
        if m.per is not None:
            if per == 0:
                out[m.name] = None  # nothing to divide by (no packet): an empty cell, not an error
                continue
            v = v / Decimal(per)
        if m.scale is not None:
            v = v * Decimal(repr(m.scale))
        out[m.name] = float(v)
    return out
