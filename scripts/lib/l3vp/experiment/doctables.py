"""Measurement tables of the docs, generated from experiment files.

A Markdown file holds a generated table between two marker comments:

    <!-- table: experiments/docs/net-ping.yaml#rtt -->
    | Configuration | 64 B | ... |
    |---|---|
    | default | 150.8 / 151.2 / 152.3 | ... |
    <!-- /table -->

The path (relative to the repository) names an experiment file; `#rtt` one
entry of its `tables:` section, which says how the tidy table of the
experiment (one row per run, docs/experiments.md) becomes the Markdown
table: rows and columns select runs by their axis values (`where`), and a
cell is a format string whose fields are Python expressions over the
selected run's metrics and axes (`{rtt_avg_us:.1f}`), or over several runs
of the selection (`{(at(echoes=11).cyc - at(echoes=1).cyc) / 10:.0f}`).

A number in the prose is a value marker, on one line:

    ... aggregate goodput <!-- value: experiments/docs/net-tcpmulti10.yaml#goodput -->24.88<!-- /value --> Mbit/s

`#goodput` names an entry of the file's `values:` section: `value`, a
format string like a table cell (`"{host_mbps:.2f}"`, or over several runs
`"{min(r.turnaround_us for r in runs(size=64)):.1f}"`), with an optional
`where` (the runs it sees), `vars` and `join`. Only the text between the
two comments is rewritten; markers in code spans and code blocks are
examples.

Everything around the markers is kept as it is. `rewrite` replaces the
tables in the files; `check` only compares and returns the differences.
The runs go through the experiment tool (one Dask cluster for all files,
the run cache of the tool), so a second check with unchanged sources and
binary starts no leon3vp at all.
"""
import difflib
import glob
import json
import math
import os
import re
import string
import sys

from . import cli as _cli
from . import firmware as _fw
from . import metrics as _metrics
from . import spec as _spec

ROOT = _fw.ROOT
BEGIN = re.compile(r"^<!-- table: (\S+?)#([A-Za-z0-9_.-]+) -->\s*$")
END = "<!-- /table -->"
TABLE_KEYS = ("corner", "rows", "columns", "cell", "where", "vars", "align", "join")
LINE_KEYS = ("label", "where", "cell", "cells", "vars", "axis")
VALUE = re.compile(r"<!-- value: (\S+?)#([A-Za-z0-9_.-]+) -->(.*?)<!-- /value -->")
VALUE_KEYS = ("value", "where", "vars", "join")
VALUE_PREFIX = "value:"   # value names in collect()'s sets, apart from table names


class TableError(Exception):
    """A bad marker or table spec: one line naming it."""


# -- the table spec ------------------------------------------------------------
def _check_where(w, where):
    if w is None:
        return {}
    if not isinstance(w, dict) or not all(isinstance(k, str) and _spec._scalar(v) for k, v in w.items()):
        raise TableError(f"{where}: must map axis (or column) names to values")
    return dict(w)


def _check_vars(v, where):
    """Names for the cells: scalars or lists of scalars."""
    if v is None:
        return {}
    if not isinstance(v, dict) or not all(
            isinstance(k, str) and (_spec._scalar(x) or isinstance(x, list) and all(map(_spec._scalar, x)))
            for k, x in v.items()):
        raise TableError(f"{where}: must map names to values or lists of values")
    return dict(v)


def _lines(exp, spec, where):
    """Rows or columns: a list of {label, where, cell}, or {axis: NAME,
    label: "{NAME} B"} for one line per value of the axis (grid order)."""
    if isinstance(spec, dict) and "axis" in spec:
        _spec._keys(spec, where, LINE_KEYS, required=("axis",))
        axis = spec["axis"]
        vals = None
        for names, tuples in exp.axes:
            if axis in names:
                i = names.index(axis)
                vals = []
                for t in tuples:
                    if t[i] not in vals:
                        vals.append(t[i])
        if vals is None:
            raise TableError(f"{where}.axis: '{axis}' is not an axis of {exp.name}")
        label = spec.get("label", "{" + axis + "}")
        return [{"label": label.format(**{axis: v}), "where": {axis: v}, "cell": spec.get("cell"),
                 "cells": {}, "vars": {}} for v in vals]
    if not isinstance(spec, list) or not spec:
        raise TableError(f"{where}: must be a non-empty list of {{label, where, cell}} or {{axis: NAME}}")
    out = []
    for i, ln in enumerate(spec):
        w = f"{where}[{i}]"
        _spec._keys(ln, w, LINE_KEYS, required=("label",))
        if not isinstance(ln["label"], str):
            raise TableError(f"{w}.label: must be a string")
        cells = ln.get("cells") or {}
        if not isinstance(cells, dict) or not all(isinstance(v, str) for v in cells.values()):
            raise TableError(f"{w}.cells: must map column labels to cell formats")
        out.append({"label": ln["label"], "where": _check_where(ln.get("where"), f"{w}.where"),
                    "cell": ln.get("cell"), "cells": cells,
                    "vars": _check_vars(ln.get("vars"), f"{w}.vars")})
    return out


def joined(exp, t, where):
    """The other experiment files a table takes runs from (`join:`, paths
    relative to this file), as repository-relative paths: their rows are
    added to this experiment's, and the column `experiment` (each file's
    `experiment:` name) tells them apart in `where`."""
    j = t.get("join") or []
    if not isinstance(j, list) or not all(isinstance(x, str) and x.endswith((".yaml", ".yml")) for x in j):
        raise TableError(f"{exp.path}: {where}.join: must be a list of experiment files")
    return [os.path.relpath(os.path.normpath(os.path.join(exp.dir, x)), ROOT) for x in j]


def table_spec(exp, raw_tables, name):
    where = f"tables.{name}"
    if not isinstance(raw_tables, dict) or name not in raw_tables:
        raise TableError(f"{exp.path}: no table '{name}' under tables:")
    t = raw_tables[name]
    try:
        _spec._keys(t, where, TABLE_KEYS, required=("rows", "columns"))
    except _spec.SpecError as e:
        raise TableError(str(e)) from None
    rows = _lines(exp, t["rows"], f"{where}.rows")
    cols = _lines(exp, t["columns"], f"{where}.columns")
    align = t.get("align", "---")
    if isinstance(align, str):
        align = [align] * (len(cols) + 1)
    # a list: one entry per Markdown column (a corner may span several:
    # "variant | bytes", its row labels then hold as many cells)
    if not isinstance(align, list) or not align or \
            not all(isinstance(a, str) and re.fullmatch(r":?-+:?", a) for a in align):
        raise TableError(f"{where}.align: '---' or a list of '---' / '---:', one per Markdown column")
    labels = [c["label"] for c in cols]
    for ln in rows:
        for k in ln.get("cells") or {}:
            if k not in labels:
                raise TableError(f"{where}: row '{ln['label']}': cells: no column '{k}'")
        for c in cols:
            if (ln["cells"].get(c["label"]) or ln["cell"] or c["cell"] or t.get("cell")) is None:
                raise TableError(f"{where}: no cell format for row '{ln['label']}', column '{c['label']}'")
    return {"corner": str(t.get("corner", "")), "rows": rows, "cols": cols, "cell": t.get("cell"),
            "join": joined(exp, t, where),
            "where": _check_where(t.get("where"), f"{where}.where"),
            "vars": _check_vars(t.get("vars"), f"{where}.vars"), "align": align}


# -- cells ---------------------------------------------------------------------------
class _Row:
    """One run's row: metrics and axes as attributes."""

    def __init__(self, d):
        self.__dict__.update(d)


def _select(df, where, ctx):
    sel = df
    for k, v in where.items():
        if k not in df.columns:
            raise TableError(f"{ctx}: where: '{k}' is not a column of the table (axes, metrics, variant)")
        sel = sel[sel[k].map(lambda x: x == v or str(x) == str(v))]
    return sel


def _record(sel_row):
    d = {}
    for k, v in sel_row.items():
        if isinstance(v, float) and math.isnan(v):
            v = None
        d[k.replace(".", "_")] = v
    return d


class _Run(_Row):
    """A run's row plus its raw outputs: get("stats.cycles"), region(id)."""

    def __init__(self, d, raw, ctx):
        super().__init__(d)
        self._raw, self._ctx = raw, ctx

    def get(self, path):
        try:
            return _metrics.lookup(self._raw, path)
        except KeyError as e:
            raise TableError(f"{self._ctx}: get('{path}'): {e.args[0]} not in the run's outputs") from None

    def region(self, rid, or_zero=False):
        for g in (self._raw.get("stats") or {}).get("regions", []):
            if g.get("id") == rid:
                return g
        if or_zero:   # a region never entered in this run
            return {"cycles": 0, "instructions": 0, "dcache_misses": 0, "icache_misses": 0, "entries": 0,
                    "energy_fj": 0}
        raise TableError(f"{self._ctx}: region({rid:#x}): not in the run's --stats regions")


def render_cell(fmt, df, where, ctx, records=None, extra=None):
    sel = _select(df, where, ctx)
    records = records or {}

    def run_of(row):
        rec = records.get(row["run_id"]) or {}
        return _Run(_record(row), _metrics.sources(rec.get("result") or {}), ctx)

    names = dict(extra or {})
    if len(sel) == 1:
        one = run_of(sel.iloc[0])
        names.update(_record(sel.iloc[0]))
        names.update(get=one.get, region=one.region)

    def at(**w):
        s = _select(sel, w, ctx)
        if len(s) != 1:
            raise TableError(f"{ctx}: at({w}) selects {len(s)} runs, expected one")
        return run_of(s.iloc[0])

    def runs(**w):
        return [run_of(r) for _, r in _select(sel, w, ctx).iterrows()]

    def diff(path, axis, hi, lo, n=1, default=None):
        """(value in the run with axis=hi - value in the run with axis=lo) / n:
        what N packets cost, start-up and the first packet cancelling out."""
        a, b = at(**{axis: hi}), at(**{axis: lo})
        if default is not None:
            try:
                va = _metrics.lookup(a._raw, path)
            except KeyError:
                va = default
            try:
                vb = _metrics.lookup(b._raw, path)
            except KeyError:
                vb = default
            return (va - vb) / n
        return (a.get(path) - b.get(path)) / n

    env = {"at": at, "runs": runs, "diff": diff, "abs": abs, "min": min, "max": max, "sum": sum, "len": len,
           "round": round, "range": range}
    out = []
    try:
        parsed = list(string.Formatter().parse(fmt))
    except ValueError as e:
        raise TableError(f"{ctx}: cell format {fmt!r}: {e}") from None
    for literal, field, spec, conv in parsed:
        out.append(literal)
        if field is None:
            continue
        if conv:  # Formatter splits "a != b" at "!": use "not a == b"
            raise TableError(f"{ctx}: cell field {{{field}!{conv}}}: no conversions ('!')")
        try:
            # one namespace as globals: generator expressions see it too
            v = eval(field, dict(env, __builtins__={}, **names))  # noqa: S307 (repository files)
        except TableError:
            raise
        except NameError as e:
            n = len(sel)
            hint = f" (the cell selects {n} runs: use at(axis=value).name)" if n != 1 else ""
            raise TableError(f"{ctx}: {{{field}}}: {e}{hint}") from None
        except Exception as e:  # noqa: BLE001 - any error in a cell expression is one line
            raise TableError(f"{ctx}: {{{field}}}: {type(e).__name__}: {e}") from None
        if v is None:
            raise TableError(f"{ctx}: {{{field}}} is empty (failed run or missing metric)")
        try:
            out.append(format(v, spec))
        except (ValueError, TypeError) as e:
            raise TableError(f"{ctx}: {{{field}:{spec}}}: {e}") from None
    return "".join(out)


def render_table(t, df, ctx, records=None):
    lines = ["| " + " | ".join([t["corner"]] + [c["label"] for c in t["cols"]]) + " |",
             "|" + "|".join(t["align"]) + "|"]
    for r in t["rows"]:
        cells = [r["label"]]
        for c in t["cols"]:
            fmt = r["cells"].get(c["label"]) or r["cell"] or c["cell"] or t["cell"]
            w = dict(t["where"], **r["where"], **c["where"])
            v = dict(t["vars"], **r["vars"], **c["vars"])
            cells.append(render_cell(fmt, df, w, f"{ctx}: row '{r['label']}', column '{c['label']}'",
                                     records, v))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def value_spec(exp, name):
    """The entry `name` of an experiment's `values:` section:
    {value: FORMAT, where, vars, join}; a bare string is the format."""
    raw = getattr(exp, "values", None) or {}
    if name not in raw:
        raise TableError(f"{exp.path}: no value '{name}' under values:")
    v = raw[name]
    where = f"values.{name}"
    if isinstance(v, str):
        v = {"value": v}
    try:
        _spec._keys(v, where, VALUE_KEYS, required=("value",))
    except _spec.SpecError as e:
        raise TableError(str(e)) from None
    if not isinstance(v["value"], str):
        raise TableError(f"{exp.path}: {where}.value: must be a format string ('{{metric:.1f}}')")
    return {"value": v["value"], "join": joined(exp, v, where),
            "where": _check_where(v.get("where"), f"{where}.where"),
            "vars": _check_vars(v.get("vars"), f"{where}.vars")}


def render_value(exp, name, df, tables, ctx):
    """The text of one value marker from a run's (or several runs') results."""
    v = value_spec(exp, name)
    if v["join"]:
        import pandas as pd
        df = pd.concat([df] + [tables[j][2] for j in v["join"]], ignore_index=True)
    return render_cell(v["value"], df, v["where"], ctx, tables.get("_records"), v["vars"])


# -- markers in the docs ----------------------------------------------------------------
def _code_spans(line):
    """[(start, end)] of the line's inline code spans (`...`, ``...``)."""
    return [m.span() for m in re.finditer(r"(`+)(?!`).*?(?<!`)\1(?!`)", line)]


def find_values(lines, rel="doc"):
    """[(line index, match)] of the value markers outside code blocks and
    spans; TableError for a marker that does not close on its own line (it
    would otherwise be skipped, never checked)."""
    out, fence = [], None
    for i, ln in enumerate(lines):
        f = re.match(r"\s*(```+|~~~+)", ln)
        if f and (fence is None or f.group(1)[0] == fence[0] and len(f.group(1)) >= len(fence)):
            fence = f.group(1) if fence is None else None
            continue
        if fence is not None or "<!-- value:" not in ln:
            continue
        spans = _code_spans(ln)
        found = [(i, m) for m in VALUE.finditer(ln) if not any(a <= m.start() < b for a, b in spans)]
        opened = [k.start() for k in re.finditer("<!-- value:", ln) if not any(a <= k.start() < b for a, b in spans)]
        if len(opened) != len(found):
            raise TableError(f"{rel}:{i + 1}: a value marker must close ('<!-- /value -->') on the line it opens, "
                             "with the form '<!-- value: FILE#NAME -->'")
        out += found
    return out


def find_markers(path):
    """[(begin line index, end line index, experiment file, table name)]."""
    with open(path) as f:
        lines = f.read().split("\n")
    rel = os.path.relpath(path, ROOT)
    out, open_at, fence = [], None, None
    for i, ln in enumerate(lines):
        f = re.match(r"\s*(```+|~~~+)", ln)
        if f and (fence is None or f.group(1)[0] == fence[0] and len(f.group(1)) >= len(fence)):
            fence = f.group(1) if fence is None else None   # markers in code blocks are examples
            continue
        if fence is not None:
            continue
        m = BEGIN.match(ln)
        if m:
            if open_at is not None:
                raise TableError(f"{rel}:{i + 1}: table marker inside the table opened at line {open_at + 1}")
            open_at = i
            cur = (m.group(1), m.group(2))
        elif ln.strip() == END:
            if open_at is None:
                raise TableError(f"{rel}:{i + 1}: '{END}' without a '<!-- table: FILE#NAME -->' line")
            out.append((open_at, i) + cur)
            open_at = None
    if open_at is not None:
        raise TableError(f"{rel}:{open_at + 1}: table marker without '{END}'")
    return lines, out


def doc_files(paths):
    if paths:
        return [os.path.abspath(p) for p in paths]
    return sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def resolve(p):
    """An experiment file given on the command line: as given, or relative
    to the repository (the tests run from the build directory)."""
    if os.path.isabs(p) or os.path.exists(p):
        return os.path.abspath(p)
    return os.path.join(ROOT, p)


def collect(docs, only=None):
    """{experiment file: set(table names)} used by the docs (all, or the
    experiment files in `only`)."""
    need = {}
    for d in docs:
        _, markers = find_markers(d)
        for _, _, exp_file, name in markers:
            if only and not any(os.path.join(ROOT, exp_file) == resolve(o) for o in only):
                continue
            need.setdefault(exp_file, set()).add(name)
        with open(d) as f:
            lines = f.read().split("\n")
        for _, m in find_values(lines, os.path.relpath(d, ROOT)):
            if only and not any(os.path.join(ROOT, m.group(1)) == resolve(o) for o in only):
                continue
            need.setdefault(m.group(1), set()).add(VALUE_PREFIX + m.group(2))
    return need


_command_output = {}  # script -> its stdout, within one doc-tables run


def command_table(cmd, name, ctx):
    """The name-th (1-based) Markdown table of a script's output: for the
    tables that come from the build, not from a run (scripts/fw-size-table)."""
    import subprocess

    if not re.fullmatch(r"\d+", name):
        raise TableError(f"{ctx}: a script's table is named by its number (#1)")
    if cmd not in _command_output:  # one run per script for all its tables
        p = subprocess.run([sys.executable, os.path.join(ROOT, cmd)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT)
        if p.returncode != 0:
            tail = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise _cli.Failure(f"{ctx}: {cmd} exit {p.returncode}: {tail}")
        _command_output[cmd] = p.stdout
    tables, cur = [], None
    for ln in _command_output[cmd].splitlines():
        if ln.startswith("|"):
            if cur is None:
                cur = []
                tables.append(cur)
            cur.append(ln)
        else:
            cur = None
    if int(name) < 1 or int(name) > len(tables):
        raise TableError(f"{ctx}: {cmd} printed {len(tables)} tables")
    return tables[int(name) - 1]


def run_experiments(exp_files, args, log):
    """Run (or take from the cache) every experiment; {file: (Experiment,
    raw tables, DataFrame)}. Failure on a failed run."""
    loaded, prepared_all, todo = {}, {}, []
    out = os.path.abspath(args.out)
    runs_dir = os.path.join(out, "runs")
    os.makedirs(runs_dir, exist_ok=True)
    work = sorted(exp_files)
    while work:
        ef = work.pop(0)
        if not ef.endswith((".yaml", ".yml")) or ef in loaded:
            continue  # a script's table (command_table), or done
        path = os.path.join(ROOT, ef)
        try:
            exp = _spec.load(path)
        except _spec.SpecError as e:
            raise TableError(str(e) if str(e).startswith(path) else f"{ef}: {e}") from None
        raw = exp.tables
        for name in (exp_files.get(ef) or ()):
            if name.startswith(VALUE_PREFIX):
                j = value_spec(exp, name[len(VALUE_PREFIX):])["join"]
            else:
                t = raw.get(name) if isinstance(raw, dict) else None
                j = joined(exp, t, f"tables.{name}") if isinstance(t, dict) else []
            work += [x for x in j if x not in loaded and x not in work]
        runs = exp.runs()
        _cli.validate(exp, runs)
        prepared, info = _cli.prepare(exp, runs, args, out, log)
        loaded[ef] = (exp, raw, prepared)
        for r, spec, run_id, task in prepared:
            rec = None if args.no_cache else _cli.load_cached(runs_dir, run_id)
            if rec is not None:
                prepared_all[run_id] = rec
            elif run_id not in {t[2] for t in todo}:
                todo.append((r, spec, run_id, task))
    log(f"doc-tables: {sum(len(p) for _, _, p in loaded.values())} runs in {len(loaded)} experiment files, "
        f"{len(todo)} to run")
    by_id = {run_id: (r, spec) for r, spec, run_id, _ in todo}

    def on_result(task, result):
        r, spec = by_id[task["id"]]
        rec = _cli.make_record(r, spec, task["id"], result)
        _cli._atomic_write(os.path.join(runs_dir, task["id"] + ".json"), json.dumps(rec, indent=1))
        prepared_all[task["id"]] = rec

    if todo:
        _cli.run_dask([t[3] for t in todo], args, on_result)
    result = {}
    for ef, (exp, raw, prepared) in loaded.items():
        df = _cli.table_rows(exp, prepared, prepared_all)
        bad = [e for e in df.get("error", []) if e]
        if bad:
            raise _cli.Failure(f"{ef}: {len(bad)} failed runs, first: {bad[0]}")
        df["experiment"] = exp.name
        result[ef] = (exp, raw, df)
    result["_records"] = prepared_all
    return result


def regenerate(docs, tables, wanted=None):
    """{doc path: (old text, new text)}; only the tables of the experiment
    files (or scripts) in `wanted` (default: those in `tables`)."""
    out = {}
    for d in docs:
        lines, markers = find_markers(d)
        new = list(lines)
        for b, e, ef, name in reversed(markers):
            if wanted is not None and ef not in wanted:
                continue
            if not ef.endswith((".yaml", ".yml")):
                new[b + 1:e] = command_table(ef, name, f"{os.path.relpath(d, ROOT)}:{b + 1}")
                continue
            if ef not in tables:
                continue
            exp, raw, df = tables[ef]
            t = table_spec(exp, raw, name)
            if t["join"]:
                import pandas as pd
                df = pd.concat([df] + [tables[j][2] for j in t["join"]], ignore_index=True)
            body = render_table(t, df, f"{ef}#{name}", tables.get("_records"))
            new[b + 1:e] = body
        new = regenerate_values(d, new, tables, wanted)
        if markers or new != lines or find_values(lines):
            out[d] = ("\n".join(lines), "\n".join(new))
    return out


def regenerate_values(doc, lines, tables, wanted=None):
    """The lines with every selected value marker rewritten; a changed value
    is also reported in `value_changes` (doc:line, marker, old, new)."""
    new = list(lines)
    rel = os.path.relpath(doc, ROOT)
    for i, m in reversed(find_values(lines, rel)):
        ef, name, old = m.group(1), m.group(2), m.group(3)
        if (wanted is not None and ef not in wanted) or ef not in tables:
            continue
        exp, _raw, df = tables[ef]
        text = render_value(exp, name, df, tables, f"{rel}:{i + 1}: {ef}#{name}")
        if text != old:
            value_changes.append(f"{rel}:{i + 1}: value {ef}#{name}: written {old!r}, fresh run {text!r}")
        ln = new[i]
        new[i] = ln[:m.start(3)] + text + ln[m.end(3):]
    return new


value_changes = []   # the values regenerate() found changed, for --check


def diff(path, old, new):
    rel = os.path.relpath(path, ROOT)
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                        f"{rel} (as written)", f"{rel} (fresh run)", n=1))


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(prog="doc-tables", description="Regenerate (or --check) the measurement "
                                 "tables of the docs from their experiment files (docs/developer-guide.md).")
    ap.add_argument("docs", nargs="*", help="Markdown files (default: docs/*.md)")
    ap.add_argument("--check", action="store_true", help="only compare; exit 1 and show a diff when a table differs")
    ap.add_argument("--only", action="append", metavar="EXPERIMENT",
                    help="only the tables of this experiment file (repeatable)")
    ap.add_argument("--exclude", action="append", metavar="EXPERIMENT", default=[],
                    help="skip the tables of this experiment file (repeatable)")
    ap.add_argument("--vp", default=_cli.DEFAULT_VP, help="leon3vp binary (default build/sim/leon3vp)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "doc-tables"),
                    help="run cache and firmware variants (default build/doc-tables)")
    ap.add_argument("--workers", type=int, help="local Dask workers (default: the number of cores)")
    ap.add_argument("--scheduler", help="an existing Dask scheduler, tcp://HOST:PORT")
    ap.add_argument("--no-cache", action="store_true", help="run every run again")
    ap.add_argument("--list", action="store_true", help="print the tables the docs hold and exit")
    ap.add_argument("--quiet", "-q", action="store_true")
    a = ap.parse_args(argv)
    a.fw_dir = None  # every variant (the default one too) is built from firmware/ under --out
    a.dry_run = False
    log = (lambda m: None) if a.quiet else (lambda m: print(m, file=sys.stderr))  # noqa: E731
    try:
        docs = doc_files(a.docs)
        for d in docs:
            if not os.path.isfile(d):
                raise _cli.UsageError(f"{d}: no such file")
        need = collect(docs, a.only)
        excl = {resolve(e) for e in a.exclude}
        need = {k: v for k, v in need.items() if os.path.join(ROOT, k) not in excl}
        if a.list:
            for ef in sorted(need):
                print(f"{ef}: {', '.join(sorted(need[ef]))}")
            return 0
        if not need:
            raise _cli.UsageError("no '<!-- table: FILE#NAME -->' or '<!-- value: FILE#NAME -->' markers selected")
        for ef in need:
            if not os.path.isfile(os.path.join(ROOT, ef)):
                raise TableError(f"{ef}: experiment file not found (named by a table or value marker)")
        a.vp = os.path.abspath(a.vp)
        if not os.access(a.vp, os.X_OK):
            raise _cli.UsageError(f"--vp {a.vp}: not found or not executable")
        tables = run_experiments(need, a, log)
        value_changes.clear()
        changed = 0
        for path, (old, new) in regenerate(docs, tables, set(need)).items():
            rel = os.path.relpath(path, ROOT)
            if old == new:
                log(f"{rel}: tables up to date")
                continue
            changed += 1
            if a.check:
                sys.stdout.write(diff(path, old, new))
            else:
                with open(path, "w") as f:
                    f.write(new)
                log(f"rewrote {rel}")
        for c in value_changes if a.check else ():
            print(c)
        if a.check and changed:
            print(f"doc-tables: {changed} file(s) differ from a fresh run (scripts/doc-tables rewrites them)",
                  file=sys.stderr)
            return 1
        return 0
    except (_spec.SpecError, TableError, _cli.UsageError) as e:
        print(f"doc-tables: {e}", file=sys.stderr)
        return 2
    except _cli.Failure as e:
        print(f"doc-tables: {e}", file=sys.stderr)
        return 1
