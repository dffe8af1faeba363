"""One run of leon3vp, on whichever machine executes it.

execute(task) is what a Dask worker (or, for TAP runs, the client itself)
calls. The task carries everything the run needs except leon3vp: the
firmware ELF's bytes, the filled-in scenario, the energy profile file if
it is not a shipped name. The run happens in a fresh temporary directory,
so workers need no shared file system, only leon3vp at the same path. The
result is a plain dict (picklable, JSON-serialisable); the client writes
it to DIR/runs/<run-id>.json.
"""
import json
import os
import socket
import sys
import tempfile

from ..run import run as _l3vp_run, RunError
from .. import results as _results
from . import topology as _topo


# The worker's name in a local process pool (set by its initializer).
WORKER = None


def _worker_name():
    """The Dask worker's name, the pool worker's, or None in the client
    (TAP runs). distributed is not imported where it is not loaded yet:
    a pool worker would pay its import for nothing."""
    if WORKER is not None or "distributed" not in sys.modules:
        return WORKER
    try:
        from distributed import get_worker
        return str(get_worker().name)
    except (ImportError, ValueError):
        return None


def execute(task):
    """Run one task dict (cli.make_task) and return the record's "result"."""
    with tempfile.TemporaryDirectory(prefix="l3vp-exp-") as d:
        elf = _write_firmware(task, d)
        extra = []
        for k, v in task["set"].items():
            extra += ["--set", f"{k}={v}"]
        energy = task.get("energy")
        if task.get("energy_file") is not None:
            energy = os.path.join(d, "energy-profile.json")
            with open(energy, "wb") as f:
                f.write(task["energy_file"])
        if energy:
            extra += ["--energy", energy]
        scenario = _write_scenario(task, d) if task.get("scenario") is not None else None
        if task.get("tap"):
            extra += ["--tap", task["tap"]]
        out = {"host": socket.gethostname(), "worker": _worker_name(), "returncode": None, "error": None}
        if not os.access(task["vp"], os.X_OK):
            out["error"] = f"leon3vp {task['vp']} not found or not executable on {out['host']}"
            return out
        # the UART output comes on stdout (-q: nothing else there): an
        # --uart-out path would enter `config` and so the config hash
        try:
            r = _l3vp_run(task["vp"], elf, quiet=True, scenario=scenario, net_results=scenario is not None,
                           stats=True, uart=False, max_time=task.get("max_time"), mode=task["mode"],
                           fw_params=task["fw_params"], extra=extra, workdir=d, timeout=task["timeout"])
        except RunError as e:
            out["error"] = str(e)
            return out
        out.update(returncode=r.returncode, wall_s=round(r.wall_s, 3), cmd=[os.path.basename(c) if c in (
            task["vp"], elf) else c for c in r.cmd], uart=r.uart,
            stderr=r.stderr.strip().splitlines()[-5:])
        try:
            out["stats"] = r.stats
        except (OSError, ValueError) as e:
            out["stats"] = None
            out["error"] = f"no --stats output ({e}): {r.last_stderr_line()}"
        if scenario is not None:
            try:
                out["net"] = r.net_results
            except (OSError, ValueError):
                out["net"] = None
        if task.get("topology"):   # "NAME: line" per board
            out["uart_boards"] = {b: _json_lines(text) for b, text in _topo.split_uart(r.uart).items()}
        else:
            out["uart_lines"] = _json_lines(r.uart)
        return out


def _json_lines(text):
    try:
        return _results.json_lines(text, strict=False)
    except ValueError:
        return []


def write_topology(task, d):
    """A topology task's ELFs and topology in `d`; the topology's path."""
    _write_firmware(task, d)
    return _write_scenario(task, d)


def _write_scenario(task, d):
    """The task's scenario (or topology) as d/scenario.json; its path."""
    path = os.path.join(d, "scenario.json")
    with open(path, "w") as f:
        json.dump(task["scenario"], f, indent=1)
    return path


def _write_firmware(task, d):
    """The run's ELF in `d` (its path), or for a topology every board's
    ELF under the file name the topology gives it (None: leon3vp takes no
    firmware argument)."""
    if task.get("topology"):
        for name, data in task["elf"].items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        return None
    elf = os.path.join(d, task["program"] + ".elf")
    with open(elf, "wb") as f:
        f.write(task["elf"])
    return elf
