"""scripts/experiment: run an experiment file (docs/experiments.md).

    experiment run FILE [--out DIR] [--vp PATH] [--fw-dir DIR] [--scheduler tcp://HOST:PORT]
                        [--workers N] [--executor auto|pool|dask] [--no-cache] [--dry-run] [--quiet]
    experiment list FILE
    experiment report DIR... [--published FILE.yaml] --out report.md [--html report.html]

Exit status: 0 every run succeeded; 1 a run failed or a firmware build
failed (one line each on stderr, the finished rows are in the table); 2 a
bad experiment file or bad options (one line); 130 interrupted, 143
terminated (one line; the finished rows are in the table).
"""
import argparse
import hashlib
import json
import logging
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
import zipfile

from .. import energy as _energy_model
from .. import tool as _tool
from . import spec as _spec
from . import firmware as _fw
from . import metrics as _metrics
from . import topology as _topo
from . import execute as _execute_mod
from .execute import execute

ROOT = _fw.ROOT
LIB = os.path.join(ROOT, "scripts", "lib")
DEFAULT_VP = os.path.join(ROOT, "build", "sim", "leon3vp")
PROFILE_DIR = os.path.join(ROOT, "models", "energy", "profiles")


class UsageError(Exception):
    """Bad input: exit 2 with this one line."""


class Failure(Exception):
    """Could not run (firmware build, leon3vp probe): exit 1 with this one line."""


def _say(quiet, msg):
    if not quiet:
        print(f"experiment: {msg}", file=sys.stderr)


def _sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _atomic_write(path, text):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


# -- leon3vp: version and configuration keys ---------------------------------
def probe_vp(vp, elf, cache_dir):
    """{"version", "params": [keys]} of the leon3vp binary, cached by the
    binary's SHA-256 (so a rerun with the same binary runs nothing). The
    version is --stats version.leon3vp of a 1 ns run; a "-dirty" build
    says nothing about its sources, so the binary's hash is appended."""
    sha = _sha256_file(vp)
    path = os.path.join(cache_dir, f"leon3vp-{sha[:16]}.json")
    try:
        with open(path) as f:
            info = json.load(f)
        if info.get("sha256") == sha and "stats_keys" in info:
            return info
    except (OSError, ValueError):
        pass
    p = subprocess.run([vp, "--list-params"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, text=True)
    if p.returncode != 0:
        raise Failure(f"{vp} --list-params failed: {(p.stderr.strip().splitlines() or ['?'])[-1]}")
    keys = []
    for line in p.stdout.splitlines():
        cells = line.split("|")
        if len(cells) > 2 and cells[1].strip().startswith("`"):
            keys.append(cells[1].strip().strip("`"))
    with tempfile.TemporaryDirectory(prefix="l3vp-exp-probe-") as d:
        st = os.path.join(d, "stats.json")
        p = subprocess.run([vp, "-q", "--stats", st, "--max-time", "1ns", elf], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        try:
            with open(st) as f:
                version = json.load(f)["version"]["leon3vp"]
        except (OSError, ValueError, KeyError):
            raise Failure(f"{vp} wrote no --stats version: {(p.stderr.strip().splitlines() or ['?'])[-1]}") \
                from None
    if version.endswith("-dirty"):
        version += f"+sha256:{sha[:16]}"
    info = {"sha256": sha, "version": version, "params": keys, "stats_keys": _stats_schema(vp)}
    os.makedirs(cache_dir, exist_ok=True)
    _atomic_write(path, json.dumps(info, indent=1))
    return info


def _stats_schema(vp):
    """[[key, type]] of `leon3vp --list-stats` (braces expanded, a list's
    elements as "*": regions.*.cycles); [] if this leon3vp has none."""
    p = subprocess.run([vp, "--list-stats"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       stdin=subprocess.DEVNULL, text=True)
    if p.returncode != 0:
        return []
    out = []
    for line in p.stdout.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 3 and cells[1].startswith("`"):
            out += [[k, cells[2]] for k in _metrics.expand_schema_key(cells[1].strip("`"))]
    return out


# -- preparing the runs --------------------------------------------------------
def _program_exists(program):
    fw = _fw.FW_SRC
    if os.path.isdir(os.path.join(fw, "apps", program)):
        return True
    if os.path.isdir(os.path.join(fw, "lwip", "apps", program)):  # lwIP on the board
        return True
    if program.startswith("stream_") and os.path.exists(os.path.join(fw, "isa-stream", program[7:] + ".S")):
        return True
    return program in ("isa_selfcheck_strict", "net_selftest")


def _energy(run, exp):
    """(name for the table and id, file bytes to ship or None)."""
    e = run.board["energy"]
    if e is None:
        return None, None
    if "/" in e or e.endswith(".json"):
        what = f"board.energy: {e}"
        text = _spec.read_text(os.path.join(exp.dir, e), what)
        profile = _spec.load_json(text, what)
        if not isinstance(profile, dict):
            raise _spec.SpecError(f"{what}: must be a JSON object (docs/energy.md)")
        if not _all_finite(profile):
            raise _spec.SpecError(f"{what}: a number is out of range (not finite)")
        try:
            _energy_model.check_profile(profile, what)   # leon3vp's rules for the keys it needs
        except _energy_model.ProfileError as err:
            raise _spec.SpecError(str(err)) from None
        return e, text.encode("utf-8")
    if not os.path.exists(os.path.join(PROFILE_DIR, e + ".json")):
        names = sorted(n[:-5] for n in os.listdir(PROFILE_DIR) if n.endswith(".json"))
        raise _spec.SpecError(f"board.energy: '{e}' is not a shipped profile ({', '.join(names)}) or a .json file")
    return e, None


def _all_finite(obj):
    if isinstance(obj, float):
        return math.isfinite(obj)
    if isinstance(obj, dict):
        return all(_all_finite(v) for v in obj.values())
    if isinstance(obj, list):
        return all(_all_finite(v) for v in obj)
    return True


def _set_value(v):
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _check_firmware(r):
    """A run's firmware source, checked: the program of firmware/apps, the
    build options of its project, the prebuilt ELF (SpecError)."""
    fw = r.firmware
    if fw["elf"] is not None:
        try:
            _fw.check_elf(fw["elf"])
        except ValueError as e:
            raise _spec.SpecError(f"firmware.elf: {e}") from None
        return
    if fw["cmake"] is None and not _program_exists(fw["program"]):
        raise _spec.SpecError(f"firmware.program: no program '{fw['program']}' in firmware/apps or firmware/lwip/apps")
    try:
        _fw.check_options(fw["build"], src=fw["cmake"] or _fw.FW_SRC)
    except ValueError as e:
        raise _spec.SpecError(str(e)) from None


def validate(exp, runs):
    """Checks that need the grid filled in (exit 2 on failure)."""
    seen = set()
    for r in runs:
        key = json.dumps([r.firmware["program"], r.firmware["elf"], r.firmware["build"]], sort_keys=True)
        if "topology" not in r.network and key not in seen:   # a topology's ELFs: prepare()
            seen.add(key)
            _check_firmware(r)
        _energy(r, exp)


def _firmware_key(fw):
    """Runs with the same key run the same ELF."""
    if fw["elf"] is not None:
        return ("elf", fw["elf"])
    return (fw["cmake"] or "", _fw.variant_name(fw["build"]), fw["program"])


def _firmware_file(fw, args, out, log):
    """The ELF a run's firmware names: the prebuilt file, --fw-dir's ELF
    for our default variant, or a build (ours or the cmake project's)."""
    if fw["elf"] is not None:
        return fw["elf"]
    if fw["cmake"] is None and not fw["build"] and args.fw_dir:
        elf = os.path.join(args.fw_dir, fw["program"] + ".elf")
        if not os.path.exists(elf):
            raise UsageError(f"--fw-dir: {elf} not found")
        return elf
    try:
        return _fw.build_program(os.path.join(out, "fw"), fw["build"], fw["program"], log,
                                 src=fw["cmake"] or _fw.FW_SRC)
    except _fw.BuildError as e:
        raise Failure(str(e)) from None


def _read_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise _spec.SpecError(f"firmware.elf: {path}: {e.strerror}") from None


def prepare(exp, runs, args, out, log):
    """Build the variants, probe leon3vp, and make every run's spec, id
    and task. Returns [(run, spec, run_id, task)] in grid order and the
    probe info."""
    elves = {}
    for r in runs:
        if "topology" in r.network:
            _topology_firmware(r, exp, args, out, log, elves)
            continue
        key = _firmware_key(r.firmware)
        if key not in elves:
            elf = _firmware_file(r.firmware, args, out, log)
            data = _read_elf(elf)
            elves[key] = (elf, data, _fw.fnv1a64(data))
        # the ELF's file for the run record (region names: cycles-compare)
        r.firmware["elf_file"] = elves[key][0]
    first_elf = runs[0].firmware["elf_file"] if runs else next(iter(elves.values()))[0]
    info = probe_vp(args.vp, first_elf, os.path.join(out, "cache"))
    known = set(info["params"])
    for k in exp.board["set"]:
        if k not in known:
            raise _spec.SpecError(f"board.set.{k}: not a configuration key (leon3vp --list-params)")
    check_metric_schema(exp, info.get("stats_keys"))
    out_runs = []
    for r in runs:
        if "topology" in r.network:
            data, fw_hash = r.firmware["elves"], r.firmware["hash"]
        else:
            _, data, fw_hash = elves[_firmware_key(r.firmware)]
        out_runs.append(_run_spec(exp, r, info, data, fw_hash, args))
    preflight(out_runs, args.vp, info, os.path.join(out, "cache"))
    return out_runs, info


def _topology_firmware(r, exp, args, out, log, elves):
    """A topology run's boards' ELFs (topology.py): found beside the
    topology or in --fw-dir, else built when they name one of our programs
    (net_udptx.elf); shipped under their file names, the run's topology
    rewritten to those names; the firmware hash covers them all."""
    files, names = {}, {}
    try:
        pairs = _topo.board_elves(r.network["topology"])
    except _topo.TopologyError as e:
        raise _spec.SpecError(f"{e.args[0]}: {e.args[1]}") from None
    for board, elf in pairs:
        if elf not in elves:
            elves[elf] = _topology_elf(board, elf, exp, args, out, log)
        path, data, h = elves[elf]
        name = os.path.basename(path)
        if files.get(name, (None, data, h))[1] != data:
            raise _spec.SpecError(f"network.topology.boards.{board}.elf: two different ELFs named {name}")
        files[name], names[elf] = (path, data, h), name
    r.network["topology"] = _topo.with_local_elves(r.network["topology"], names)
    r.firmware["elf_file"] = elves[pairs[0][1]][0]
    r.firmware["elves"] = {n: d for n, (_, d, _) in sorted(files.items())}
    r.firmware["hashes"] = {n: h for n, (_, _, h) in sorted(files.items())}
    r.firmware["hash"] = _fw.fnv1a64(json.dumps(r.firmware["hashes"], sort_keys=True).encode())


def _topology_elf(board, elf, exp, args, out, log):
    """(path, bytes, hash) of one board's ELF."""
    path = _topo.resolve_elf(elf, exp.topology_dir, args.fw_dir)
    if path is None:
        program = elf[:-4] if elf.endswith(".elf") else None
        if "/" in elf or program is None or not _program_exists(program):
            raise _spec.SpecError(f"network.topology.boards.{board}.elf: {elf}: found neither beside the "
                                  "topology nor in --fw-dir, and not one of our programs")
        path = _firmware_file({"program": program, "elf": None, "cmake": None, "build": {}}, args, out, log)
    try:
        _fw.check_elf(path)
    except ValueError as e:
        raise _spec.SpecError(f"network.topology.boards.{board}.elf: {e}") from None
    data = _read_elf(path)
    return path, data, _fw.fnv1a64(data)


# -- leon3vp's own checks, before the first run -------------------------------
_PREFLIGHT_KEYS = (("fw_param", "firmware.params"), ("--energy", "board.energy"), ("--set", "board.set"),
                   ("--mode", "board.mode"))


def preflight(prepared, vp, info, cache_dir):
    """What leon3vp refuses (exit 2: a firmware.params value, an energy
    profile, a --set value) fails here, one 1 ns leon3vp start per distinct
    combination, remembered in DIR/cache (a rerun starts nothing)."""
    seen = set()
    for r, spec, _, task in prepared:
        if not (task["fw_params"] or task["set"] or task["energy"] or task["topology"]):
            continue   # nothing leon3vp checks beyond what is checked here
        key = hashlib.sha256(json.dumps([info["sha256"], spec["firmware_hash"], task["fw_params"], task["set"],
                                         task["energy"], spec["energy_sha256"], task["mode"],
                                         spec.get("topology")], sort_keys=True).encode()).hexdigest()[:16]
        ok = os.path.join(cache_dir, f"preflight-{key}.ok")
        if key in seen or os.path.exists(ok):
            continue
        seen.add(key)
        _preflight_one(r.firmware["elf_file"], task, vp)
        _atomic_write(ok, "")


def _preflight_one(elf, task, vp):
    with tempfile.TemporaryDirectory(prefix="l3vp-exp-pre-") as d:
        cmd = [vp, "-q", "--max-time", "1ns", "--mode", task["mode"]]
        for k, v in task["set"].items():
            cmd += ["--set", f"{k}={v}"]
        for k, v in task["fw_params"].items():
            cmd += ["--fw-param", f"{k}={v}"]
        energy = task["energy"]
        if task["energy_file"] is not None:
            energy = os.path.join(d, "energy-profile.json")
            with open(energy, "wb") as f:
                f.write(task["energy_file"])
        if energy:
            cmd += ["--energy", energy]
        if task["topology"]:   # the topology and its ELFs as the run has them (execute.py)
            cmd += ["--scenario", _execute_mod.write_topology(task, d)]
        p = subprocess.run(cmd + ([] if task["topology"] else [elf]), stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, timeout=120)
    if p.returncode == 2:
        line = (p.stderr.strip().splitlines() or ["?"])[-1].replace("leon3vp: error: ", "")
        where = next((k for w, k in _PREFLIGHT_KEYS if w in line), "board")
        if task["topology"] and "--scenario" in line:
            where = "network.topology"
        raise _spec.SpecError(f"{where}: leon3vp refuses it: {line}")


def _run_spec(exp, r, info, data, fw_hash, args):
    """(run, spec, run id, task) of one run. The spec (the id's input)
    names the program, not the ELF's path: the ELF's hash stands for its
    content, so a moved but unchanged ELF keeps its runs."""
    energy, energy_file = _energy(r, exp)
    sets = {k: _set_value(v) for k, v in r.board["set"].items()}
    fw_params = {k: _set_value(v) for k, v in r.firmware["params"].items()}
    spec = {"program": r.firmware["program"], "variant": _fw.normalise(r.firmware["build"]),
            "firmware_hash": fw_hash, "leon3vp": info["version"], "mode": r.board["mode"],
            "max_time": r.board["max_time"], "energy": energy,
            "energy_sha256": hashlib.sha256(energy_file).hexdigest() if energy_file else None,
            "set": sets, "fw_params": fw_params, "scenario": r.network.get("scenario"),
            "tap": r.network.get("tap"), "params": r.params}
    topo = r.network.get("topology")
    if topo is not None:   # (keys of their own: the ids of the other runs stay as they were)
        spec["topology"] = topo
        spec["firmware_hashes"] = r.firmware["hashes"]
    canon = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    run_id = hashlib.sha256(canon.encode()).hexdigest()[:16]
    task = {"id": run_id, "vp": args.vp, "program": r.firmware["program"], "elf": data, "set": sets,
            "fw_params": fw_params, "energy": energy, "energy_file": energy_file,
            "topology": topo is not None,
            "scenario": topo if topo is not None else spec["scenario"], "tap": spec["tap"], "mode": r.board["mode"],
            "max_time": r.board["max_time"], "timeout": r.board["timeout"]}
    return r, spec, run_id, task


# -- metric paths, checked before the sweep -------------------------------------
def check_metric_schema(exp, stats_keys):
    """Every stats.* path of the metrics against leon3vp's --stats schema
    (--list-stats): a key no run can have fails before anything runs."""
    if not stats_keys:
        return
    def known(path):
        if exp.topology is not None:
            return _topo.stats_path_in_schema(path, lambda rest: _metrics.in_schema(rest, stats_keys))
        return _metrics.in_schema(path, stats_keys)
    for m in exp.metrics:
        for p in m.paths + ([m.per_path] if m.per_path else []):
            if p.startswith("stats.") and not known(p[len("stats."):]):
                raise _spec.SpecError(f"metrics.{m.name}: {p}: not a key of leon3vp's --stats "
                                      "(leon3vp --list-stats, docs/stats-schema.md)")


def check_metrics(exp, rec):
    """The metrics against one finished run (the first): a path its
    outputs lack is a mistake of the file, not of the run (SpecError,
    exit 2), unless the metric is optional."""
    try:
        _metrics.extract(exp.metrics, rec["result"])
    except _metrics.MetricError as e:
        msg = str(e)[len("metric "):]
        raise _spec.SpecError(f"metrics.{msg} (checked on the first finished run, {rec['id']}; "
                              "optional: true allows runs without it)") from None


# -- records ---------------------------------------------------------------------
def check_result(result, spec, expect_exit):
    """The run's failure as one line, or None when it succeeded."""
    if result.get("error"):
        return result["error"]
    rc = result.get("returncode")
    if rc not in expect_exit:
        tail = (result.get("stderr") or ["(no message)"])[-1]
        return f"leon3vp exit {rc} (expected {', '.join(map(str, expect_exit))}): {tail}"
    ver = (result.get("stats") or {}).get("version", {})
    if "topology" in spec:
        ran = ver.get("firmware_hash") or {}
        for b in spec["topology"]["boards"]:
            want = spec["firmware_hashes"][b["elf"]]
            if ran.get(b["name"]) != want:
                return f"board {b['name']} ran firmware {ran.get(b['name'])}, expected {want}"
    elif ver.get("firmware_hash") != spec["firmware_hash"]:
        return f"ran firmware {ver.get('firmware_hash')}, expected {spec['firmware_hash']}"
    if not spec["leon3vp"].startswith(ver.get("leon3vp", "?")):
        return f"{result.get('host')} ran leon3vp {ver.get('leon3vp')}, expected {spec['leon3vp']}"
    return None


def load_cached(runs_dir, run_id):
    try:
        with open(os.path.join(runs_dir, run_id + ".json")) as f:
            rec = json.load(f)
    except (OSError, ValueError):
        return None
    if rec.get("id") != run_id or not rec.get("ok"):
        return None
    return rec


def make_record(run, spec, run_id, result):
    err = check_result(result, spec, run.board["expect_exit"])
    return {"id": run_id, "index": run.index, "ok": err is None, "error": err, "params": run.params,
            "spec": spec, "elf_file": run.firmware.get("elf_file"), "result": result}


# -- the table -------------------------------------------------------------------
def table_rows(exp, prepared, records):
    """One row per finished run, grid order; metric errors go to `error`.
    diff metrics are filled in afterwards from pairs of rows."""
    import pandas as pd

    rows, diff_terms = [], []
    for r, spec, run_id, _ in prepared:
        rec = records.get(run_id)
        if rec is None:
            continue
        row, terms = _row(exp, r, spec, run_id, rec)
        rows.append(row)
        diff_terms.append((r.params, terms))
    for m in exp.metrics:
        if m.diff is not None:
            vals = _metrics.diff_values(m, [(p, t.get(m.name)) for p, t in diff_terms])
            for row, v in zip(rows, vals):
                row[m.name] = v
    return pd.DataFrame(rows)


def _row(exp, r, spec, run_id, rec):
    """(table row, {diff metric: terms}) of one finished run."""
    res = rec["result"]
    stats = res.get("stats") or {}
    ver = stats.get("version", {})
    row = {"run_id": run_id, "program": spec["program"], "variant": _fw.variant_name(spec["variant"]),
           "mode": spec["mode"], "energy": spec["energy"] or ""}
    row.update(r.params)
    row.update({f"build.{k}": v for k, v in spec["variant"].items()})
    row.update({f"fw.{k}": v for k, v in spec["fw_params"].items()})
    row.update({f"set.{k}": v for k, v in spec["set"].items()})
    error = rec.get("error")
    vals = {m.name: None for m in exp.metrics}
    terms = {}
    if rec.get("ok"):
        try:
            vals = _metrics.extract(exp.metrics, res)
            doc = _metrics.sources(res)
            terms = {m.name: _metrics.terms(m, doc) for m in exp.metrics if m.diff is not None}
        except _metrics.MetricError as e:
            error = str(e)
    row.update(vals)
    row.update({"exit_status": res.get("returncode"),
                "sim_time_ps": stats.get("sim_time_ps", (stats.get("run") or {}).get("sim_time_ps")),
                "leon3vp_version": ver.get("leon3vp"), "config_hash": ver.get("config_hash"),
                "firmware_hash": spec["firmware_hash"] if "topology" in spec else ver.get("firmware_hash"),
                "error": error or ""})
    return row, terms


def write_outputs(exp, prepared, records, out, draw_plots=True):
    """results.csv (one row per run), with statistics over seeds also
    summary.csv (one row per cell of the other axes), and the plots."""
    df = table_rows(exp, prepared, records)
    _write_csv(df, os.path.join(out, "results.csv"))
    summary = None
    if exp.stats_over is not None:
        from . import stats as _stats
        summary = _stats.summarise(df, exp.stats_over, exp.axis_names, [m.name for m in exp.metrics])
        _write_csv(summary, os.path.join(out, "summary.csv"))
    errors = [e for e in df.get("error", []) if e]
    if draw_plots and exp.plots and len(df) and not errors:
        _draw_plots(exp, df, summary, os.path.join(out, "plots"))
    return df, errors


def _plots_stamp(exp, df, summary):
    """What the plots are drawn from: the tables and the plot specs."""
    h = hashlib.sha256(df.to_csv(index=False).encode())
    if summary is not None:
        h.update(summary.to_csv(index=False).encode())
    h.update(json.dumps([p.__dict__ for p in exp.plots], sort_keys=True, default=str).encode())
    return h.hexdigest()


def _draw_plots(exp, df, summary, pdir):
    """The declared plots, unless those in `pdir` were drawn from the same
    tables and specs (a rerun from the cache skips matplotlib)."""
    stamp = _plots_stamp(exp, df, summary)
    stamp_path = os.path.join(pdir, ".drawn-from")
    files = [os.path.join(pdir, f"{p.name}.{ext}") for p in exp.plots for ext in ("png", "svg")]
    try:
        with open(stamp_path) as f:
            if f.read() == stamp and all(os.path.exists(x) for x in files):
                return
    except OSError:
        pass
    from . import plots as _plots
    metrics = {m.name for m in exp.metrics}
    for p in exp.plots:
        by_cell = summary is not None and all(c is None or c in summary.columns for c in (p.x, p.hue, p.facet))
        if by_cell and p.y in metrics:
            _plots.draw(p, summary, pdir, y=f"{p.y}_mean", yerr=f"{p.y}_ci95")
        else:
            _plots.draw(p, df, pdir)
    _atomic_write(stamp_path, stamp)


def _write_csv(df, path):
    tmp = path + ".tmp"
    df.to_csv(tmp, index=False)
    os.replace(tmp, path)


# -- execution -------------------------------------------------------------------
def _lib_zip(d):
    """scripts/lib/l3vp as a zip for client.upload_file: the workers of an
    existing cluster import execute() from it and need no checkout."""
    path = os.path.join(d, "l3vp_experiment_lib.zip")
    with zipfile.ZipFile(path, "w") as z:
        for base, _, files in os.walk(os.path.join(LIB, "l3vp")):
            for n in sorted(files):
                if n.endswith(".py"):
                    full = os.path.join(base, n)
                    z.write(full, os.path.relpath(full, LIB))
    return path


# A grid of at most this many runs to run (no --scheduler) goes to a local
# process pool: it starts in milliseconds, where a local Dask cluster takes
# seconds; larger grids and --scheduler use Dask (--executor overrides).
POOL_MAX_RUNS = 64


def executor_for(args, ntasks):
    """"pool" or "dask" for `ntasks` runs (docs/experiments.md, "Local and
    cluster runs")."""
    kind = getattr(args, "executor", None) or "auto"
    if getattr(args, "scheduler", None):
        return "dask"
    if kind == "auto":
        return "pool" if ntasks <= POOL_MAX_RUNS else "dask"
    return kind


def run_tasks(tasks, args, on_result, pilot=False, label="runs"):
    """Run the tasks (a local process pool or Dask: executor_for), calling
    on_result(task, result) in the client as each finishes, with a
    progress bar on a terminal's stderr. With `pilot`, the first task runs
    alone before the others are submitted, so that on_result can stop the
    sweep (by raising) after one run: a metric path that is wrong fails
    in the time of one run, not of all. Nothing starts without tasks."""
    if not tasks:
        return
    bar = _tool.progress(len(tasks), label, getattr(args, "quiet", False))

    def done(task, result):
        bar.update(1)
        on_result(task, result)
    try:
        run = _run_pool if executor_for(args, len(tasks)) == "pool" else _run_dask
        run(tasks, args, done, pilot)
    finally:
        bar.close()


run_dask = run_tasks   # the name doctables.py calls it by


def _batches(tasks, pilot):
    return [tasks[:1], tasks[1:]] if pilot and len(tasks) > 1 else [tasks]


def _pool_worker_init():
    _execute_mod.WORKER = f"pool-{os.getpid()}"


def _run_pool(tasks, args, on_result, pilot):
    """The tasks in a local process pool (concurrent.futures), one run per
    worker at a time; interrupted, the runs are killed before the pool is
    shut down (no worker outlives the tool)."""
    import concurrent.futures as cf

    ex = _tool.process_pool(min(args.workers or os.cpu_count() or 1, len(tasks)), _pool_worker_init)
    futures = []
    try:
        for batch in _batches(tasks, pilot):
            fs = {ex.submit(execute, t): t for t in batch}
            futures += fs
            for fut in cf.as_completed(fs):
                try:
                    res = fut.result()
                except Exception as e:  # a worker died or the task raised
                    res = {"returncode": None, "error": f"task failed in the local pool: {type(e).__name__}: {e}"}
                on_result(fs[fut], res)
    except BaseException:
        _tool.stop_pool(ex, futures)
        raise
    ex.shutdown(wait=True)


def _run_dask(tasks, args, on_result, pilot):
    """The tasks on a Dask cluster (--scheduler's or a local one)."""
    from distributed import as_completed

    logging.getLogger("distributed").setLevel(logging.ERROR)
    client, cluster = _dask_client(args, len(tasks))
    futures = []
    try:
        for batch in _batches(tasks, pilot):
            fs = [client.submit(execute, t, key=f"l3vp-run-{t['id']}", pure=False) for t in batch]
            futures += fs
            by_key = {f.key: t for f, t in zip(fs, batch)}
            for fut in as_completed(fs):
                try:
                    res = fut.result()
                except Exception as e:  # a worker died or the task raised
                    res = {"returncode": None, "error": f"task failed on the cluster: {type(e).__name__}: {e}"}
                on_result(by_key[fut.key], res)
    except BaseException:
        if cluster is not None:   # the local cluster's runs: stopped at once, not awaited
            _tool.kill_descendants()
        raise
    finally:
        for f in futures:
            f.cancel()
        try:
            with _tool.held_signals():
                client.close()
        finally:
            if cluster is not None:
                cluster.close()


def _dask_client(args, ntasks):
    """(client, local cluster or None): --scheduler's cluster (the l3vp
    package shipped to it) or a local one (LocalDask)."""
    from distributed import Client

    if args.scheduler:
        try:
            client = Client(args.scheduler, timeout=30)
        except (OSError, TimeoutError) as e:
            raise Failure(f"--scheduler {args.scheduler}: cannot connect ({e})") from None
        with tempfile.TemporaryDirectory(prefix="l3vp-exp-lib-") as d:
            client.upload_file(_lib_zip(d))
        return client, None
    cluster = None
    try:
        with _tool.held_signals():  # a signal meanwhile is raised once `cluster` is set
            cluster = LocalDask(min(args.workers or os.cpu_count() or 1, ntasks))
        return cluster.client(), cluster
    except BaseException:
        if cluster is not None:
            cluster.close()
        raise


class LocalDask:
    """A local Dask cluster: dask-scheduler and dask-worker (n single-
    threaded worker processes) as child processes in a session of their
    own, so that a terminal's Ctrl-C or a SIGTERM to the tool's process
    group reaches the tool alone; the tool stops its runs and then the
    cluster (SIGTERM to the session; after the leader has ended or 10 s,
    SIGKILL to whatever of the session is left). No
    multiprocessing object of the tool's own, hence no leaked semaphores;
    a worker folder of its own, removed at the end."""

    def __init__(self, n):
        import socket
        self.n, self.procs = n, []
        self.dir = tempfile.mkdtemp(prefix="l3vp-exp-dask-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.addr = f"tcp://127.0.0.1:{s.getsockname()[1]}"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (LIB, os.environ.get("PYTHONPATH")) if p))
        dask = [sys.executable, "-m", "distributed.cli."]
        # Both started and recorded before a signal can stop the tool (held
        # back, it is raised on leaving): a process started but not yet in
        # self.procs, in a session of its own, would outlive the tool.
        try:
            with _tool.held_signals():
                self._start(dask[:2] + [dask[2] + "dask_scheduler", "--host", "127.0.0.1", "--port",
                                        self.addr.rsplit(":", 1)[1], "--no-dashboard"], env, "scheduler")
                self._start(dask[:2] + [dask[2] + "dask_worker", self.addr, "--nworkers", str(n), "--nthreads",
                                        "1", "--no-dashboard", "--host", "127.0.0.1", "--local-directory",
                                        self.dir, "--death-timeout", "60"], env, "workers")
        except BaseException:
            self.close()
            raise

    def _start(self, cmd, env, name):
        log = open(os.path.join(self.dir, name + ".log"), "w")
        self.procs.append(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                           cwd=self.dir, env=env, start_new_session=True))
        log.close()

    def client(self, timeout=60):
        """A Client once the scheduler answers and every worker is there
        (the port polled with a plain socket: a Client that fails to
        connect logs errors from its thread until the tool exits)."""
        import socket
        import time
        from distributed import Client
        deadline = time.monotonic() + timeout
        host, port = self.addr[len("tcp://"):].rsplit(":", 1)
        while True:
            try:
                socket.create_connection((host, int(port)), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or any(p.poll() is not None for p in self.procs):
                    raise Failure(f"the local Dask cluster did not start (logs in {self.dir})") from None
                time.sleep(0.1)
        client = None
        try:
            with _tool.held_signals():   # a signal held back is raised on leaving, client set
                client = Client(self.addr, timeout=30)
            client.wait_for_workers(self.n, timeout=max(1, deadline - time.monotonic()))
        except BaseException:
            if client is not None:
                with _tool.held_signals():
                    client.close()
            raise
        return client

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            # a leader that ended may leave members of its session (the
            # nanny's worker processes, slow to stop on a loaded machine)
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def subset(exp, runs, specs):
    """The runs whose axis values are among those given by --subset AXIS=V1,V2."""
    for text in specs:
        axis, eq, vals = text.partition("=")
        if not eq or axis not in exp.axis_names or not vals:
            raise UsageError(f"--subset {text}: expected AXIS=V1,V2 with an axis of the grid "
                             f"({', '.join(exp.axis_names)})")
        want = vals.split(",")
        known = {str(r.params[axis]) for r in runs}
        for v in want:
            if v not in known:
                raise UsageError(f"--subset {text}: {v} is not a value of {axis} ({', '.join(sorted(known))})")
        runs = [r for r in runs if str(r.params[axis]) in want]
    return runs


def cmd_list(exp, runs):
    names = exp.axis_names
    print("\t".join(["#", "program", "variant"] + names))
    for r in runs:
        print("\t".join([str(r.index), r.firmware["program"], _fw.variant_name(r.firmware["build"])]
                        + [str(r.params[n]) for n in names]))
    print(f"{len(runs)} runs", file=sys.stderr)
    return 0


class MetricGate:
    """Checks the metrics once, on the first successful run (a cached one
    or the first to finish): check_metrics raises SpecError (exit 2)."""

    def __init__(self, exp):
        self.exp, self.done = exp, False

    def __call__(self, rec):
        if not self.done and rec.get("ok"):
            self.done = True
            check_metrics(self.exp, rec)


def _plan(prepared, runs_dir, no_cache):
    """({run id: cached record}, [prepared runs to run]) in grid order."""
    records, todo = {}, []
    for r, spec, run_id, task in prepared:
        rec = None
        # TAP runs depend on a real kernel: never reused
        if not no_cache and spec["tap"] is None:
            rec = load_cached(runs_dir, run_id)
        if rec is not None:
            records[run_id] = rec
        elif all(t[2] != run_id for t in todo):
            todo.append((r, spec, run_id, task))
    return records, todo


def _print_dry_run(prepared, records):
    for r, spec, run_id, _ in prepared:
        state = "cached" if run_id in records else "run"
        print(f"{run_id}\t{state}\t{_fw.variant_name(spec['variant'])}\t"
              + "\t".join(f"{k}={v}" for k, v in r.params.items()))


def _execute_all(todo, args, on_result, pilot, label):
    """Simulated runs in a local pool or on Dask (the first alone with
    `pilot`), then the TAP runs in the client. True if interrupted."""
    try:
        tap = [t for t in todo if t[1]["tap"] is not None]
        sim = [t for t in todo if t[1]["tap"] is None]
        if sim:
            run_tasks([t[3] for t in sim], args, on_result, pilot=pilot, label=label)
        for t in tap:  # real time against a real kernel: one at a time, in the client
            on_result(t[3], execute(t[3]))
    except KeyboardInterrupt:
        return True
    return False


def _report_failures(records, errors):
    """Print the failed runs and metric errors; the list of both."""
    failed = [(rid, rec["error"]) for rid, rec in records.items() if not rec.get("ok")]
    for rid, err in failed[:5]:
        print(f"experiment: run {rid}: {err}", file=sys.stderr)
    if len(failed) > 5:
        print(f"experiment: ... and {len(failed) - 5} more failed runs (error column of the table)",
              file=sys.stderr)
    metric_errors = [e for e in errors if not any(e == f[1] for f in failed)]
    for e in metric_errors:
        print(f"experiment: {e}", file=sys.stderr)
    return failed + metric_errors


def cmd_run(exp, runs, args):
    out = os.path.abspath(args.out or os.path.join("experiments-out", exp.name))
    runs_dir = os.path.join(out, "runs")
    try:
        os.makedirs(runs_dir, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--out {out}: {e.strerror}") from None
    validate(exp, runs)
    log = lambda m: _say(args.quiet, m)  # noqa: E731
    prepared, info = prepare(exp, runs, args, out, log)
    shutil.copyfile(exp.path, os.path.join(out, "experiment.yaml"))
    records, todo = _plan(prepared, runs_dir, args.no_cache)
    log(f"{exp.name}: {len(prepared)} runs, {len(prepared) - len(todo)} cached, {len(todo)} to run "
        f"(leon3vp {info['version']})")
    gate = MetricGate(exp)
    for r, spec, run_id, _ in prepared:  # a cached run checks the metrics before anything runs
        if run_id in records:
            gate(records[run_id])
    if args.dry_run:
        _print_dry_run(prepared, records)
        return 0
    by_id = {run_id: (r, spec) for r, spec, run_id, _ in todo}

    def on_result(task, result):
        r, spec = by_id[task["id"]]
        rec = make_record(r, spec, task["id"], result)
        _atomic_write(os.path.join(runs_dir, task["id"] + ".json"), json.dumps(rec, indent=1))
        records[task["id"]] = rec
        gate(rec)

    interrupted, complete = False, False
    try:
        interrupted = _execute_all(todo, args, on_result, pilot=not gate.done, label=exp.name)
        complete = not interrupted
    finally:
        df, errors = write_outputs(exp, prepared, records, out, draw_plots=complete)
    problems = _report_failures(records, errors)
    log(f"{len(df)} rows in {os.path.join(out, 'results.csv')}")
    if interrupted:
        return _stopped(f": {len(records)} of {len(prepared)} runs finished")
    return 1 if problems else 0


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the tool is: handled like Ctrl-C (finished
    runs kept) but ends with exit 143."""


_SIGNAL = {"got": None}


def _on_sigterm(signum, frame):
    _SIGNAL["got"] = signum
    raise Terminated()


def _stopped(what):
    """One line and the exit status of an interrupted tool (130 Ctrl-C, 143 SIGTERM)."""
    term = _SIGNAL["got"] == signal.SIGTERM
    print(f"experiment: {'terminated (SIGTERM)' if term else 'interrupted'}{what}", file=sys.stderr)
    return 143 if term else 130


def main(argv=None):
    """The tool: every outcome is an exit status and at most one line on
    stderr; an unexpected exception is an internal error (exit 1)."""
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return _stopped("")
    except _spec.SpecError as e:
        print(f"experiment: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # stdout closed early (`experiment list F | head`): end quietly, as
        # a shell tool killed by SIGPIPE (the exit flush must not fail again)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as e:  # noqa: BLE001 - the promise: never a traceback
        where = traceback.extract_tb(e.__traceback__)[-1]
        msg = " ".join(str(e).split())[:300]
        print(f"experiment: internal error: {type(e).__name__}: {msg} ({os.path.basename(where.filename)}:"
              f"{where.lineno}); please report it with the command and its input files", file=sys.stderr)
        return 1


def _main(argv=None):
    ap = argparse.ArgumentParser(prog="experiment", description="Declarative leon3vp sweeps "
                                 "(docs/experiments.md).")
    sub = ap.add_subparsers(dest="cmd", required=True)
    pr = sub.add_parser("run", help="run an experiment file")
    pr.add_argument("file", nargs="+", help="experiment file(s); with several, --out DIR holds one "
                    "folder per file, DIR/<file name without .yaml>")
    pr.add_argument("--out", help="output directory (default experiments-out/<experiment>)")
    pr.add_argument("--vp", default=DEFAULT_VP, help="leon3vp binary (default build/sim/leon3vp)")
    pr.add_argument("--fw-dir", help="prebuilt firmware for the default variant (e.g. build/firmware); "
                    "default: built on demand under DIR/fw")
    pr.add_argument("--scheduler", help="an existing Dask scheduler, tcp://HOST:PORT")
    pr.add_argument("--workers", type=int, help="local worker processes (default: the number of cores)")
    pr.add_argument("--executor", choices=("auto", "pool", "dask"), default="auto",
                    help=f"local runs: a process pool (pool), a local Dask cluster (dask), or auto: the pool "
                    f"for at most {POOL_MAX_RUNS} runs to run, Dask above (--scheduler: always Dask)")
    pr.add_argument("--no-cache", action="store_true", help="run every run again")
    pr.add_argument("--dry-run", action="store_true", help="build, compute the run ids, print them, run nothing")
    pr.add_argument("--quiet", "-q", action="store_true")
    pr.add_argument("--subset", action="append", default=[], metavar="AXIS=V1,V2",
                    help="run only the grid points whose AXIS is one of these values (repeatable); "
                    "the run ids and the cache are those of the full grid")
    pl = sub.add_parser("list", help="print the runs of the grid")
    pl.add_argument("file")
    pl.add_argument("--subset", action="append", default=[], metavar="AXIS=V1,V2")
    prep = sub.add_parser("report", help="one Markdown/HTML report of finished experiments, "
                          "optionally beside published figures")
    prep.add_argument("dirs", nargs="+", metavar="DIR", help="output directories of `experiment run`")
    prep.add_argument("--published", help="published figures (YAML, experiments/seed-study/published.yaml)")
    prep.add_argument("--out", required=True, help="the Markdown report")
    prep.add_argument("--html", help="also a self-contained HTML report")
    args = ap.parse_args(argv)
    if args.cmd == "report":
        from . import report as _report
        try:
            return _report.main(args)
        except _report.ReportError as e:
            print(f"experiment: {e}", file=sys.stderr)
            return 2
        except OSError as e:
            print(f"experiment: {e.filename}: {e.strerror}", file=sys.stderr)
            return 2
    if args.cmd == "run":
        files = args.file
        if len(files) > 1:
            # several files: all checked before any runs, then one after the
            # other, each in DIR/<stem> (or its default folder without --out)
            stems = [os.path.splitext(os.path.basename(f))[0] for f in files]
            if len(set(stems)) != len(stems):
                print("experiment: run: several files of the same name: give them one at a time", file=sys.stderr)
                return 2
            for f in files:
                try:
                    _spec.load(f)
                except _spec.SpecError as e:
                    msg = str(e) if str(e).startswith(f) else f"{f}: {e}"
                    print(f"experiment: {msg}", file=sys.stderr)
                    return 2
            base, worst = args.out, 0
            for f, stem in zip(files, stems):
                args.file = f
                args.out = os.path.join(base, stem) if base else None
                rc = _main_one(args)
                if rc in (2, 130, 143):
                    return rc
                worst = max(worst, rc)
            return worst
        args.file = files[0]
    return _main_one(args)


def _main_one(args):
    try:
        exp = _spec.load(args.file)
        runs = subset(exp, exp.runs(), args.subset)
        if args.cmd == "list":
            return cmd_list(exp, runs)
        if args.workers is not None and args.workers < 1:
            raise UsageError("--workers must be at least 1")
        if args.scheduler and args.executor == "pool":
            raise UsageError("--executor pool runs locally: not with --scheduler")
        if args.scheduler and not args.scheduler.startswith(("tcp://", "tls://")):
            raise UsageError(f"--scheduler {args.scheduler}: expected tcp://HOST:PORT")
        args.vp = os.path.abspath(args.vp)
        if not os.access(args.vp, os.X_OK):
            raise UsageError(f"--vp {args.vp}: not found or not executable")
        return cmd_run(exp, runs, args)
    except _spec.SpecError as e:
        msg = str(e) if str(e).startswith(args.file) else f"{args.file}: {e}"
        print(f"experiment: {msg}", file=sys.stderr)
        return 2
    except UsageError as e:
        print(f"experiment: {e}", file=sys.stderr)
        return 2
    except Failure as e:
        print(f"experiment: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # outside the runs (building, writing the plots): every finished
        # run is already in DIR/runs/, the next run takes it from the cache
        return _stopped("")
