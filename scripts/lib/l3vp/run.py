"""Run leon3vp and collect what it wrote.

    r = l3vp.run(vp, elf, stats=True, uart=True, max_time="30s", mode="timed")
    r.returncode, r.uart, r.lines(), r.stats, r.net_results, r.wall_s

Output files (--stats, --net-results, --pcap, --uart-out) go to `workdir`
(stats.json, results.json, link.pcap, uart.txt); without one, to a fresh
temporary directory that is removed when the Result is garbage collected
(read what you need, or pass workdir to keep the files). The command line
is built in one fixed order: -q, --scenario, --net-results, --stats, --pcap,
--uart-out, --max-time, --mode, --fw-param..., extra options, the ELF.
"""
import os
import subprocess
import tempfile
import time

from . import results as _results


class RunError(Exception):
    """leon3vp could not be run (not found, not executable)."""


class RunTimeout(RunError):
    """leon3vp did not finish within the wall-clock timeout (it was killed)."""

    def __init__(self, cmd, timeout):
        super().__init__(f"leon3vp did not finish within {timeout:g} s wall")
        self.cmd = cmd
        self.timeout = timeout


def fw_param_args(params):
    """--fw-param KEY=VALUE options (dict order) for leon3vp."""
    out = []
    for k, v in (params or {}).items():
        out += ["--fw-param", f"{k}={v}"]
    return out


def command(vp, elf, *, quiet=False, scenario=None, net_results=None, stats=None, pcap=None,
            uart=None, max_time=None, mode=None, fw_params=None, extra=()):
    """leon3vp's argv. File options take paths (None = option left out)."""
    cmd = [vp]
    if quiet:
        cmd.append("-q")
    for opt, val in (("--scenario", scenario), ("--net-results", net_results), ("--stats", stats),
                     ("--pcap", pcap), ("--uart-out", uart), ("--max-time", max_time), ("--mode", mode)):
        if val is not None:
            cmd += [opt, str(val)]
    cmd += fw_param_args(fw_params)
    cmd += list(extra)
    if elf is not None:
        cmd.append(elf)
    return cmd


class Result:
    """One finished leon3vp run."""

    def __init__(self, cmd, returncode, stdout, stderr, wall_s, paths, tmp):
        self.cmd = cmd
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.wall_s = wall_s
        self.paths = paths      # {"stats"|"net_results"|"pcap"|"uart": path} of what was asked for
        self._tmp = tmp         # TemporaryDirectory (removed with this object) or None
        self._cache = {}
        uart = paths.get("uart")
        if uart is None:
            self.uart = stdout
        else:
            try:
                with open(uart, encoding="latin-1") as f:  # bytes as they are
                    self.uart = f.read()
            except OSError:
                self.uart = ""

    @property
    def crashed(self):
        """Killed by a signal (crash, abort)."""
        return self.returncode < 0

    def last_stderr_line(self):
        return (self.stderr.strip().splitlines() or ["(no message)"])[-1]

    def lines(self, strict=True):
        """The firmware's JSON result lines (l3vp.results.json_lines)."""
        return _results.json_lines(self.uart, strict)

    def _load(self, key):
        if key not in self.paths:
            raise ValueError(f"run without {key} output")
        if key not in self._cache:
            self._cache[key] = _results.load_stats(self.paths[key])
        return self._cache[key]

    @property
    def stats(self):
        """--stats JSON (dict); OSError/ValueError if leon3vp wrote none."""
        return self._load("stats")

    @property
    def net_results(self):
        """--net-results JSON (dict); OSError/ValueError if leon3vp wrote none."""
        return self._load("net_results")


def run(vp, elf, *, quiet=False, scenario=None, net_results=False, stats=False, pcap=False,
        uart=False, max_time=None, mode=None, fw_params=None, extra=(), workdir=None,
        timeout=600, stdin=subprocess.DEVNULL):
    """Run leon3vp on `elf` to the end and return a Result.

    net_results/stats/pcap/uart: True to have leon3vp write that file into
    the work directory. Raises RunTimeout (after killing leon3vp) or
    RunError (cannot execute)."""
    tmp = None
    if workdir is None and (net_results or stats or pcap or uart):
        tmp = tempfile.TemporaryDirectory(prefix="l3vp-run-")
        workdir = tmp.name
    names = {"net_results": "results.json", "stats": "stats.json", "pcap": "link.pcap", "uart": "uart.txt"}
    wanted = {"net_results": net_results, "stats": stats, "pcap": pcap, "uart": uart}
    paths = {k: os.path.join(workdir, names[k]) for k, on in wanted.items() if on}
    cmd = command(vp, elf, quiet=quiet, scenario=scenario, net_results=paths.get("net_results"),
                  stats=paths.get("stats"), pcap=paths.get("pcap"), uart=paths.get("uart"),
                  max_time=max_time, mode=mode, fw_params=fw_params, extra=extra)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RunTimeout(cmd, timeout) from None
    except OSError as e:
        raise RunError(f"cannot run {vp}: {e}") from None
    wall = time.monotonic() - t0
    return Result(cmd, p.returncode, p.stdout.decode("utf-8", "replace"),
                  p.stderr.decode("utf-8", "replace"), wall, paths, tmp)
