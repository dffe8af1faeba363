"""scripts/experiment report: one Markdown (and HTML) report of finished
experiments, optionally beside published figures (docs/experiments.md,
"The reference study").

    experiment report DIR... [--published FILE.yaml] --out report.md [--html report.html]

Each DIR is an output directory of `experiment run` (results.csv,
experiment.yaml, plots/). With --published, every table of the file is
set against the experiment of the same name, cell by cell: the VP's value,
the published one and their ratio (VP / published); a ratio outside the
table's tolerance is marked MISMATCH, a published cell without a VP value
"no VP value", and a table without published numbers says so. Every
table states how its published quantity was measured (the board's timer,
the PC, a count on the board, a model). Nothing is left out of a table
because it disagrees.

The report is built as a list of blocks (heading, paragraph, table,
image) rendered twice, as Markdown (plots copied beside it into
<stem>_files/) and as self-contained HTML (plots as data URIs).
"""
import base64
import html
import math
import os
import shutil

from . import spec as _spec

MEASURED = {
    "board_timer": "on the board, with its timer (GPTIMER timestamps)",
    "board_counter": "on the board, by counting (no timing)",
    "pc": "from the PC (the PC's own stack, driver and NIC are inside the figure)",
    "model": "not measured: computed with an energy model",
    "unknown": "not known",
}
DEFAULT_TOLERANCE = 0.2
TABLE_KEYS = {"id", "thesis_ref", "caption", "units", "measured_with", "measured_note", "caveat", "status",
              "experiment", "metric", "rows", "columns", "where", "derive", "cells", "tolerance", "vp_scale",
              "comparable", "not_comparable", "kind", "explain", "calibration"}
# keys of a published cell that are not axis coordinates
CELL_KEYS = {"value", "range", "approx", "source", "metric"}
KINDS = ("table", "trend")


class ReportError(Exception):
    """Bad input: one line, exit 2."""


# -- inputs ----------------------------------------------------------------------
class Result:
    """One experiment output directory."""

    def __init__(self, d):
        import pandas as pd

        self.dir = d
        try:
            path = os.path.join(d, "experiment.yaml")
            self.spec = _spec.load_yaml(_spec.read_text(path, path), path)
            self.df = pd.read_csv(os.path.join(d, "results.csv"), keep_default_na=False, na_values=[""],
                                  dtype={c: str for c in _spec.TEXT_COLUMNS})
        except (OSError, ValueError, _spec.SpecError) as e:
            raise ReportError(f"{d}: not an experiment output directory ({e})") from None
        if not isinstance(self.spec, dict) or "experiment" not in self.spec:
            raise ReportError(f"{d}/experiment.yaml: no experiment name")
        self.name = self.spec["experiment"]
        pdir = os.path.join(d, "plots")
        self.plots = sorted(os.path.join(pdir, n) for n in os.listdir(pdir) if n.endswith(".png")) \
            if os.path.isdir(pdir) else []


def load_published(path):
    try:
        doc = _spec.load_yaml(_spec.read_text(path, path), path)
    except _spec.SpecError as e:
        raise ReportError(f"--published {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("tables"), list):
        raise ReportError(f"--published {path}: needs a list 'tables'")
    for i, t in enumerate(doc["tables"]):
        where = f"--published {path}: tables[{i}]"
        if not isinstance(t, dict):
            raise ReportError(f"{where}: must be a mapping")
        extra = set(t) - TABLE_KEYS
        if extra:
            raise ReportError(f"{where}.{sorted(extra)[0]}: unknown key")
        for k in ("id", "experiment", "metric", "rows", "measured_with"):
            if k not in t:
                raise ReportError(f"{where}: missing '{k}'")
        if t["measured_with"] not in MEASURED:
            raise ReportError(f"{where}.measured_with: '{t['measured_with']}' is not one of {', '.join(MEASURED)}")
        _check_table_flags(t, where)
        cal = t.get("calibration")
        if cal is not None and (not isinstance(cal, dict) or not isinstance(cal.get("how"), str)
                                or not isinstance(cal.get("cells"), list)):
            raise ReportError(f"{where}.calibration: needs 'how' (text) and 'cells' (a list of coordinates)")
        for j, c in enumerate(t.get("cells") or []):
            _check_cell(t, c, f"{where}.cells[{j}]")
        for j, e in enumerate(t.get("explain") or []):
            if not isinstance(e, dict) or not isinstance(e.get("why"), str) or "\n" in e["why"].strip() \
                    or set(e) - {"why", "where", "metric", "side"} or e.get("side") not in (None, "low", "high"):
                raise ReportError(f"{where}.explain[{j}]: needs a one-line 'why' and optional where, metric, "
                                  "side (low|high)")
    return doc


def _check_table_flags(t, where):
    """comparable/not_comparable, kind and derive: a table not to be scored
    must say why (the report prints the reason beside its numbers)."""
    if t.get("comparable", True) not in (True, False):
        raise ReportError(f"{where}.comparable: must be true or false")
    if t.get("comparable", True) is False and not t.get("not_comparable"):
        raise ReportError(f"{where}: comparable: false needs the reason in 'not_comparable'")
    if t.get("kind", "table") not in KINDS:
        raise ReportError(f"{where}.kind: '{t['kind']}' is not one of {', '.join(KINDS)}")
    der = t.get("derive") or {}
    if set(der) - {"improvement", "ratio"} or len(der) > 1:
        raise ReportError(f"{where}.derive: one of improvement, ratio")


def _check_cell(t, c, where):
    if not isinstance(c, dict) or ("value" in c) == ("range" in c):
        raise ReportError(f"{where}: needs exactly one of value and range")
    if "range" in c and (not isinstance(c["range"], list) or len(c["range"]) != 2):
        raise ReportError(f"{where}.range: must be [low, high]")
    metrics = t["metric"] if isinstance(t["metric"], list) else [t["metric"]]
    if "metric" in c and c["metric"] not in metrics:
        raise ReportError(f"{where}.metric: '{c['metric']}' is not a metric of the table")


# -- numbers -----------------------------------------------------------------------
def fmt(v):
    """A number for a table: 4 significant digits at most, no exponent."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if isinstance(v, str):
        return v
    a = abs(v)
    if a >= 1000 or float(v).is_integer():
        return f"{v:.0f}"
    if a >= 100:
        return f"{v:.1f}"
    if a >= 10:
        return f"{v:.2f}"
    return f"{v:.3g}"


def ratio_of(vp, cell):
    """(ratio, text) of a VP value against a published cell: VP / value,
    or for a range VP / the nearer bound (1 inside it)."""
    if "range" in cell:
        lo, hi = cell["range"]
        r = vp / lo if vp < lo else vp / hi if vp > hi else 1.0
        return r, f"{r:.2f}"
    return vp / cell["value"], f"{vp / cell['value']:.2f}"


def _same(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return str(a) == str(b)


def _derived(der, b, o):
    """improvement: (base - other) / base x 100; ratio: other / base."""
    if b in (None, 0) or o is None or math.isnan(b) or math.isnan(o):
        return None
    return (b - o) / b * 100.0 if der == "improvement" else o / b


def vp_frame(table, df):
    """The table's rows of the results, `where` applied, with the derived
    quantity if any, as (frame, [metric columns])."""
    import pandas as pd

    metrics = table["metric"] if isinstance(table["metric"], list) else [table["metric"]]
    for m in metrics:
        if m not in df.columns:
            raise ReportError(f"table {table['id']}: metric '{m}' is not a column of {table['experiment']}'s results")
    for k, v in (table.get("where") or {}).items():
        if k not in df.columns:
            raise ReportError(f"table {table['id']}: where.{k} is not a column")
        df = df[[_same(x, v) for x in df[k]]]
    scale = table.get("vp_scale")
    if scale is not None:
        df = df.copy()
        for m in metrics:
            df[m] = df[m] * scale
    if not table.get("derive"):
        return df, metrics
    kind, der = next(iter(table["derive"].items()))
    axis, base, other = der["axis"], der["base"], der["other"]
    keys = [k for k in list(table["rows"]) + ([table["columns"]] if table.get("columns") else []) if k != axis]
    out = []
    for _, g in (df.groupby(keys if len(keys) > 1 else keys[0], sort=False) if keys else [((), df)]):
        b = g[[_same(x, base) for x in g[axis]]]
        o = g[[_same(x, other) for x in g[axis]]]
        row = {k: g.iloc[0][k] for k in keys}
        for m in metrics:
            one = len(b) == 1 and len(o) == 1
            row[m] = _derived(kind, float(b.iloc[0][m]), float(o.iloc[0][m])) if one else None
        out.append(row)
    return pd.DataFrame(out), metrics


def cells_at(cells, coords, metric):
    """(index, cell) of the published cells at these coordinates: every
    axis key of the cell equal, and its `metric` (if any) this one."""
    return [(i, p) for i, p in enumerate(cells)
            if all(k in coords and _same(coords[k], v) for k, v in p.items() if k not in CELL_KEYS)
            and p.get("metric", metric) == metric]


def explanation(table, coords, metric, side):
    """1-based number of the first `explain` entry covering a mismatched
    cell (its where, metric and side: VP low or high), or None."""
    for n, e in enumerate(table.get("explain") or [], 1):
        if e.get("metric", metric) != metric or e.get("side", side) != side:
            continue
        where = e.get("where") or {}
        if all(k in coords and any(_same(coords[k], x) for x in (v if isinstance(v, list) else [v]))
               for k, v in where.items()):
            return n
    return None


def is_calibration(table, coords):
    """A cell the simulated PC's profile was fitted to (table `calibration.cells`)."""
    return any(all(k in coords and _same(coords[k], v) for k, v in c.items())
               for c in (table.get("calibration") or {}).get("cells") or [])


def _pub_text(p):
    if "range" in p:
        return f"{fmt(p['range'][0])}..{fmt(p['range'][1])}"
    return ("~" if p.get("approx") else "") + fmt(p["value"])


def cell_text(table, vp, p, coords, metric, counts):
    """One cell with a published counterpart. Not comparable: both numbers,
    never scored. Trend: holds or differs, never a mismatch. Otherwise the
    ratio, MISMATCH outside the tolerance with its explanation number."""
    ptxt = _pub_text(p)
    if vp is None:
        counts["no_vp"] += 1
        return f"no VP value / {ptxt}"
    if table.get("comparable", True) is False:
        counts["shown"] += 1
        return f"{fmt(vp)} / {ptxt} (not comparable)"
    r, rtxt = ratio_of(vp, p)
    bad = abs(r - 1.0) > table.get("tolerance", DEFAULT_TOLERANCE)
    if table.get("kind") == "trend":
        counts["trend"] += 1
        counts["trend_off"] += bad
        if not bad:
            return f"{fmt(vp)} / {ptxt} ({rtxt} trend holds)"
        return f"{fmt(vp)} / {ptxt} ({rtxt} trend differs{_why_mark(table, coords, metric, r, counts)})"
    tag = ""
    if is_calibration(table, coords):
        counts["calibration"] += 1
        tag = " calibration"
    else:
        counts["compared"] += 1
    if not bad:
        return f"{fmt(vp)} / {ptxt} ({rtxt}{tag})"
    counts["mismatch"] += 1
    return f"{fmt(vp)} / {ptxt} ({rtxt}{tag} MISMATCH{_why_mark(table, coords, metric, r, counts)})"


def _why_mark(table, coords, metric, r, counts):
    """' [n]': the explanation of a cell off the published figure, counted."""
    n = explanation(table, coords, metric, "low" if r < 1 else "high")
    if n is None:
        counts["unexplained"] += 1
        return " [unexplained]"
    counts["why"][n] = counts["why"].get(n, 0) + 1
    return f" [{n}]"


def _vp_at(frame, rows_axes, key, col, c, m):
    sel = frame
    for a, v in zip(rows_axes, key):
        sel = sel[[_same(x, v) for x in sel[a]]]
    if col:
        sel = sel[[_same(x, c) for x in sel[col]]]
    vp = None if len(sel) == 0 else sel.iloc[0][m]
    return None if vp is None or (isinstance(vp, float) and math.isnan(vp)) else float(vp)


def compare(table, df):
    """Render data for one table: {metric: (header, rows)} plus counts.
    A grid cell is "VP" alone, or "VP / published (ratio)" with a mark."""
    frame, metrics = vp_frame(table, df)
    rows_axes = list(table["rows"])
    col = table.get("columns")
    cells = table.get("cells") or []
    counts = {"published": len(cells), "compared": 0, "mismatch": 0, "no_vp": 0, "shown": 0, "trend": 0,
              "trend_off": 0, "calibration": 0, "unexplained": 0, "why": {}}
    used = set()
    out = {}
    for m in metrics:
        cols = list(dict.fromkeys(frame[col])) if col else [None]
        header = rows_axes + ([f"{col}={c}" for c in cols] if col else [m])
        body = []
        keys = list(dict.fromkeys(tuple(r[a] for a in rows_axes) for _, r in frame.iterrows()))
        for key in keys:
            line = [fmt(k) if not isinstance(k, str) else k for k in key]
            for c in cols:
                vp = _vp_at(frame, rows_axes, key, col, c, m)
                coords = dict(zip(rows_axes, key), **({col: c} if col else {}))
                pub = cells_at(cells, coords, m)[:1]
                used.update(i for i, _ in pub)
                line.append(cell_text(table, vp, pub[0][1], coords, m, counts) if pub else fmt(vp))
            body.append(line)
        out[m] = (header, body)
    counts["unmatched"] = len(cells) - len(used)
    return out, counts


# -- blocks and rendering ---------------------------------------------------------------
def _md_escape(s):
    return str(s).replace("|", "\\|")


def render_md(blocks, out_path):
    stem = os.path.splitext(os.path.basename(out_path))[0]
    files = os.path.join(os.path.dirname(os.path.abspath(out_path)), f"{stem}_files")
    lines = []
    for kind, *a in blocks:
        if kind == "h":
            lines += ["#" * a[0] + " " + a[1], ""]
        elif kind == "p":
            lines += [a[0], ""]
        elif kind == "table":
            header, body = a
            lines.append("| " + " | ".join(_md_escape(h) for h in header) + " |")
            lines.append("|" + "|".join("---" for _ in header) + "|")
            lines += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in body]
            lines.append("")
        elif kind == "img":
            path, name = a
            os.makedirs(files, exist_ok=True)
            shutil.copyfile(path, os.path.join(files, name))
            lines += [f"![{name}]({stem}_files/{name})", ""]
    with open(out_path, "w") as f:
        f.write("\n".join(lines))


def render_html(blocks, out_path, title):
    parts = ["<!DOCTYPE html>", "<html><head><meta charset=\"utf-8\">", f"<title>{html.escape(title)}</title>",
             "<style>body{font-family:sans-serif;max-width:70em;margin:2em auto;} table{border-collapse:collapse;"
             "margin:1em 0;} td,th{border:1px solid #bbb;padding:2px 6px;text-align:right;} "
             "th{background:#eee;} td.bad{background:#fdd;font-weight:bold;} img{max-width:100%;}</style>",
             "</head><body>"]
    for kind, *a in blocks:
        if kind == "h":
            parts.append(f"<h{a[0]}>{html.escape(a[1])}</h{a[0]}>")
        elif kind == "p":
            parts.append(f"<p>{html.escape(a[0])}</p>")
        elif kind == "table":
            header, body = a
            parts.append("<table><tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in header) + "</tr>")
            for row in body:
                tds = []
                for c in row:
                    cls = ' class="bad"' if "MISMATCH" in str(c) else ""
                    tds.append(f"<td{cls}>{html.escape(str(c))}</td>")
                parts.append("<tr>" + "".join(tds) + "</tr>")
            parts.append("</table>")
        elif kind == "img":
            with open(a[0], "rb") as f:
                data = base64.b64encode(f.read()).decode()
            parts.append(f"<p><img alt=\"{html.escape(a[1])}\" src=\"data:image/png;base64,{data}\"></p>")
    parts.append("</body></html>")
    with open(out_path, "w") as f:
        f.write("\n".join(parts) + "\n")


def _results_table(res):
    axes = [a for a in (res.spec.get("grid") or {})]
    for z in res.spec.get("zip") or []:
        axes += list(z)
    metrics = list((res.spec.get("metrics") or {}))
    cols = [c for c in axes + metrics if c in res.df.columns]
    body = [[fmt(r[c]) if not isinstance(r[c], str) else r[c] for c in cols] for _, r in res.df.iterrows()]
    return cols, body


def _plots(blocks, res, done):
    for p in res.plots:
        name = f"{res.name}-{os.path.basename(p)}"
        if name not in done:
            done.add(name)
            blocks.append(("img", p, name))


def _scoring(t):
    if t.get("comparable", True) is False:
        return "no (not comparable)"
    return "trend" if t.get("kind") == "trend" else "yes"


def _state(t, c):
    """The summary's verdict on one table."""
    if not c["published"]:
        return "no published numbers"
    if t.get("comparable", True) is False:
        return f"not comparable: {c['shown']} cell(s) shown beside, none scored"
    if t.get("kind") == "trend":
        return f"trend holds in {c['trend'] - c['trend_off']} of {c['trend']} cell(s)"
    if not c["mismatch"]:
        return "within tolerance"
    why = "all explained" if not c["unexplained"] else f"{c['unexplained']} UNEXPLAINED"
    return f"{c['mismatch']} mismatch(es), {why}"


def _intro(t):
    """The paragraphs above a table: what the published quantity is, how it
    was measured, and why it is not scored or how the PC was calibrated."""
    meas = MEASURED[t["measured_with"]]
    sec = [("p", f"Thesis reference: {t.get('thesis_ref', 'not given')}. Units: {t.get('units', '?')}. "
                 f"Published quantity measured {meas}."
                 + (f" {' '.join(str(t['measured_note']).split())}" if t.get("measured_note") else ""))]
    if t.get("comparable", True) is False:
        sec.append(("p", "Not comparable (shown beside the VP's figures, never scored): "
                         + " ".join(str(t["not_comparable"]).split())))
    if t.get("kind") == "trend":
        sec.append(("p", "A trend, not a cell-by-cell figure: `trend holds` when the VP's value is inside the "
                         "published range (within the tolerance of a single value)."))
    if t.get("calibration"):
        sec.append(("p", "PC calibration: " + " ".join(str(t["calibration"]["how"]).split())
                         + " Cells marked `calibration` set the PC's profile; every other cell is held out."))
    if t.get("caveat"):
        sec.append(("p", "Caveat: " + " ".join(str(t["caveat"]).split())))
    if t.get("status"):
        sec.append(("p", f"Published numbers: {t['status']}."))
    return sec


def _why_lines(t, counts):
    """One line per explanation that covers a remaining MISMATCH."""
    out = []
    if counts["why"]:
        out.append(("p", "Why the mismatches remain:" if t.get("kind") != "trend" else "Why the trend differs:"))
        for n in sorted(counts["why"]):
            why = " ".join(t["explain"][n - 1]["why"].split())
            out.append(("p", f"[{n}] {why} ({counts['why'][n]} cell(s))"))
    if counts["unexplained"]:
        out.append(("p", f"{counts['unexplained']} cell(s) off the published figure have no explanation in the "
                         "published file."))
    return out


def _table_section(t, res, plotted):
    """(blocks, summary row) of one published table."""
    sec = [("h", 2, f"{t.get('caption', t['id'])} ({t['id']})")] + _intro(t)
    row = [t["id"], t["measured_with"], _scoring(t), str(len(t.get("cells") or []))]
    if res is None:
        sec.append(("p", f"VP: experiment '{t['experiment']}' was not given (no DIR with that name)."))
        return sec, row + ["–", "–", "not run"], None
    data, counts = compare(t, res.df)
    for m, (header, body) in data.items():
        if len(data) > 1:
            sec.append(("p", f"Metric `{m}`:"))
        sec.append(("table", header, body))
    sec += _why_lines(t, counts)
    if counts["unmatched"]:
        sec.append(("p", f"{counts['unmatched']} published cell(s) match no VP cell of this table."))
    _plots(sec, res, plotted)
    return sec, row + [str(counts["compared"]), str(counts["mismatch"]), _state(t, counts)], counts


def _study_intro(published):
    blocks = []
    study = published.get("study") or {}
    if study:
        blocks.append(("p", f"Published figures: {study.get('author', '?')}, \"{study.get('title', '?')}\" "
                            f"({study.get('kind', '')}; {study.get('setup', '')})."))
        if study.get("retrieval"):
            blocks.append(("p", "Source of the published numbers: " + " ".join(str(study["retrieval"]).split())))
    blocks.append(("p", "A cell reads `VP / published (VP ÷ published)`; `~` marks a published \"about\" "
                        "figure, `a..b` a published range (ratio to the nearer bound, 1.00 inside). A ratio "
                        "outside the table's tolerance is marked MISMATCH with the number of the line that "
                        "explains it; `calibration` marks a cell the simulated PC was calibrated on (all others "
                        "are held out). A table marked not comparable shows `VP / published (not comparable)` "
                        "and is never scored. A cell with one number has no published counterpart."))
    return blocks


def build(results, published):
    blocks = [("h", 1, "Experiment report")]
    by_name = {}
    for r in results:
        if r.name in by_name:
            raise ReportError(f"{r.dir}: experiment '{r.name}' given twice (also {by_name[r.name].dir})")
        by_name[r.name] = r
    for r in results:
        errs = [e for e in r.df.get("error", []) if isinstance(e, str) and e]
        if errs:
            blocks.append(("p", f"WARNING: {r.name}: {len(errs)} of {len(r.df)} runs failed (first: {errs[0]})."))
    plotted = set()
    if published is None:
        for r in results:
            blocks.append(("h", 2, r.name))
            if r.spec.get("description"):
                blocks.append(("p", " ".join(str(r.spec["description"]).split())))
            blocks.append(("table", *_results_table(r)))
            _plots(blocks, r, plotted)
        return blocks
    blocks += _study_intro(published)
    summary, sections, total = [], [], {"compared": 0, "mismatch": 0, "unexplained": 0, "shown": 0}
    for t in published["tables"]:
        sec, row, counts = _table_section(t, by_name.get(t["experiment"]), plotted)
        summary.append(row)
        sections += sec
        for k in total:
            total[k] += counts[k] if counts else 0
    blocks.append(("h", 2, "Summary"))
    blocks.append(("p", f"{total['compared']} held-out published cell(s) compared, {total['mismatch']} "
                        f"mismatch(es) ({total['unexplained']} unexplained); {total['shown']} cell(s) of "
                        "not comparable tables shown beside, not scored."))
    blocks.append(("table", ["table", "published measured", "scored", "published cells", "compared",
                             "mismatches", "state"], summary))
    blocks += sections
    named = {t["experiment"] for t in published["tables"]}
    for r in results:
        if r.name not in named:
            blocks.append(("h", 2, f"{r.name} (no published table)"))
            blocks.append(("table", *_results_table(r)))
            _plots(blocks, r, plotted)
    return blocks


def main(args):
    results = [Result(d) for d in args.dirs]
    published = load_published(args.published) if args.published else None
    blocks = build(results, published)
    render_md(blocks, args.out)
    if args.html:
        render_html(blocks, args.html, "leon3vp experiment report")
    return 0
