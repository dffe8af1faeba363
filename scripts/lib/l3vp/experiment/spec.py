"""Experiment files: loading, strict validation, and the grid of runs.

An experiment file (YAML, docs/experiments.md) is checked completely before
anything runs: every problem raises SpecError with one line naming the key
(`grid.size: ...`). Expanding the grid gives one Run per point: the axis
values, and the firmware, board and network settings with every
`{placeholder}` filled in. Nothing here runs leon3vp or touches the
firmware build; firmware.py and cli.py add the hashes that make a run id.
"""
import copy
import itertools
import json
import math
import os
import re
import stat
import string

import yaml

from .. import units as _units
from . import topology as _topology

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_EXPERIMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}\Z")
_PROGRAM = re.compile(r"[A-Za-z0-9_]+")
_MODES = ("timed", "functional")

# Columns that hold text even when a value looks like a number: a commit
# such as "99556e8" or a hash of digits must not be read back as a float.
TEXT_COLUMNS = ("run_id", "program", "variant", "mode", "energy", "error", "leon3vp_version", "config_hash",
                "firmware_hash")
# Columns the table always has: an axis or a metric may not take their names.
FIXED_COLUMNS = ("run_id", "program", "variant", "mode", "energy", "exit_status", "error",
                 "sim_time_ps", "leon3vp_version", "config_hash", "firmware_hash")
PLOT_KINDS = ("line", "bar")


class SpecError(Exception):
    """A bad experiment file: the message is one line naming the problem."""


# Input limits (docs/experiments.md, "Input rules")
MAX_FILE_BYTES = 1 << 20      # an experiment file or a network.scenario file
MAX_DEPTH = 100               # nesting of mappings and lists
MAX_NODES = 200000            # YAML nodes after expanding aliases (*name)
MAX_POINTS = 100000           # points of the grid
MAX_FORMAT_WIDTH = 1000       # a width or precision in a {placeholder:spec}
MAX_SEED = 4294967295         # the link's and the host's seeds are 32-bit


def read_text(path, what):
    """The text of an input file: a regular file (no FIFO, device or
    folder) of at most MAX_FILE_BYTES, UTF-8. SpecError "WHAT: ..." else."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise SpecError(f"{what}: not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            raise SpecError(f"{what}: larger than {MAX_FILE_BYTES} bytes")
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise SpecError(f"{what}: {e.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise SpecError(f"{what}: larger than {MAX_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SpecError(f"{what}: not UTF-8 text (byte {e.start})") from None


class _Loader(yaml.SafeLoader):
    """SafeLoader with bounded nesting and bounded alias expansion (an
    alias bomb of a few hundred bytes would otherwise expand to 10^9 nodes)."""

    def compose_node(self, parent, index):
        self._depth = getattr(self, "_depth", 0) + 1
        if self._depth > MAX_DEPTH:
            raise SpecError(f"nested deeper than {MAX_DEPTH} levels (line {self.peek_event().start_mark.line + 1})")
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def get_single_node(self):
        node = super().get_single_node()
        if node is not None and _expanded_size(node, {}) > MAX_NODES:
            raise SpecError(f"more than {MAX_NODES} values once aliases (*name) are expanded")
        return node


def _expanded_size(node, memo):
    """Nodes of the tree with every alias expanded (memoised per node)."""
    key = id(node)
    if key not in memo:
        memo[key] = 0   # a recursive alias counts once (the constructor refuses it anyway)
        if isinstance(node, yaml.MappingNode):
            kids = [n for pair in node.value for n in pair]
        elif isinstance(node, yaml.SequenceNode):
            kids = node.value
        else:
            kids = []
        total = 1
        for k in kids:
            total += _expanded_size(k, memo)
            if total > MAX_NODES:
                break
        memo[key] = total
    return memo[key]


def load_yaml(text, what):
    """YAML text -> data, SpecError "WHAT: ..." on bad YAML or a limit."""
    try:
        return yaml.load(text, Loader=_Loader)
    except SpecError as e:
        raise SpecError(f"{what}: {e}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "?"
        raise SpecError(f"{what}: not YAML ({where}: {getattr(e, 'problem', None) or e})") from None
    except RecursionError:
        raise SpecError(f"{what}: nested too deep") from None


def load_json(text, what):
    """JSON text -> data, SpecError on bad JSON or nesting beyond MAX_DEPTH."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise SpecError(f"{what}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:
        raise SpecError(f"{what}: not JSON ({e})") from None
    if _depth(data) > MAX_DEPTH:
        raise SpecError(f"{what}: nested deeper than {MAX_DEPTH} levels")
    return data


def _depth(obj, level=1):
    if level > MAX_DEPTH:
        return level
    kids = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else ()
    return max([level] + [_depth(k, level + 1) for k in kids])


def _fail(where, msg):
    raise SpecError(f"{where}: {msg}")


def _keys(obj, where, allowed, required=()):
    if not isinstance(obj, dict):
        _fail(where, "must be a mapping")
    for k in obj:
        if not isinstance(k, str) or k not in allowed:
            _fail(f"{where}.{k}" if where else str(k), f"unknown key (known: {', '.join(allowed)})")
    for k in required:
        if k not in obj:
            _fail(f"{where}.{k}" if where else k, "missing")


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _scalar(v):
    return isinstance(v, (str, int, float, bool)) and v is not None


def _scalar_map(obj, where):
    """{str: scalar} (firmware params, --set keys, CMake options)."""
    if obj is None:
        return {}
    if not isinstance(obj, dict):
        _fail(where, "must be a mapping of keys to values")
    for k, v in obj.items():
        if not isinstance(k, str) or not k:
            _fail(where, f"key {k!r} is not a string")
        if not _scalar(v):
            _fail(f"{where}.{k}", "must be a string, number or boolean")
    return dict(obj)


def resolve_path(base, path):
    """A path of the experiment file: ~ and $VARS expanded, relative to
    the file's folder `base`."""
    return os.path.normpath(os.path.join(base, os.path.expandvars(os.path.expanduser(path))))


def _check_path(path, where):
    if not isinstance(path, str) or path.split(".")[0] not in ("stats", "net", "uart") \
            or len(path.split(".")) < 2 or "" in path.split("."):
        _fail(where, "must be a dotted path starting with stats., net. or uart.")


class Metric:
    """A named value of a run: one path, or the sum of several (`sum`),
    optionally divided by another path or a number (`per`: a per-packet
    figure from a total and a count), then multiplied by `scale`.

    With `diff` = (axis, a, b) the metric belongs to a pair of runs: the
    value of the run at axis=a minus that of the run at axis=b with every
    other axis equal (the per path's values subtracted alike), shown in
    the row of a (metrics.py, diff_values)."""

    def __init__(self, name, path, scale=None, optional=False, paths=None, per=None, diff=None):
        self.name, self.path, self.scale, self.optional = name, path, scale, optional
        self.paths = paths if paths is not None else [path]
        self.per = per
        self.diff = diff

    @property
    def per_path(self):
        """The `per` path, or None when `per` is absent or a number."""
        return self.per if isinstance(self.per, str) else None


class Plot:
    def __init__(self, d):
        self.__dict__.update(d)


class Run:
    """One point of the grid, placeholders filled in."""

    def __init__(self, index, params, firmware, board, network):
        self.index = index          # position in the grid (the table's row order)
        self.params = params        # {axis: value}
        self.firmware = firmware    # {"program", "elf", "cmake", "build": {...}, "params": {...}}
        self.board = board          # {"set": {...}, "mode", "energy", "max_time", "timeout", "expect_exit"}
        self.network = network      # {"scenario": dict} | {"topology": dict} | {"tap": name} | {}


class Experiment:
    """A validated experiment file."""

    def __init__(self, path, doc):
        self.path = path
        self.dir = os.path.dirname(os.path.abspath(path))
        _keys(doc, "", ("experiment", "description", "firmware", "board", "network", "grid", "zip",
                        "metrics", "plots", "tables", "values", "statistics"),
              required=("experiment", "metrics"))
        self.name = doc["experiment"]
        if not isinstance(self.name, str) or not _EXPERIMENT_NAME.match(self.name):
            _fail("experiment", "must be a name of letters, digits, '_', '.', '-'")
        self.description = doc.get("description", "")
        if not isinstance(self.description, str):
            _fail("description", "must be a string")
        net = doc.get("network") or {}
        self.topology = None
        if isinstance(net, dict) and "topology" in net:
            if "firmware" in doc:
                _fail("firmware", "a topology names each board's ELF (boards[].elf): leave firmware out")
            self.fw = {"program": None, "elf": None, "cmake": None, "build": {}, "params": {}}
        elif "firmware" not in doc:
            _fail("", "missing key firmware (or network.topology, whose boards name their ELFs)")
        else:
            self._firmware(doc["firmware"])
        self._board(doc.get("board") or {})
        self._network(doc.get("network") or {})
        self._grid(doc.get("grid") or {}, doc.get("zip") or [])
        self._metrics(doc["metrics"])
        self._statistics(doc.get("statistics"))
        self._plots(doc.get("plots") or [])
        # Markdown tables of the docs made from this experiment's results
        # (scripts/doc-tables checks them; `run` ignores them).
        self.tables = doc.get("tables") or {}
        if not isinstance(self.tables, dict):
            _fail("tables", "must map table names to table specs (docs/developer-guide.md)")
        # single numbers quoted in the prose of the docs (scripts/doc-tables)
        self.values = doc.get("values") or {}
        if not isinstance(self.values, dict):
            _fail("values", "must map value names to value specs (docs/developer-guide.md)")
        self._check_placeholders()
        if self.stats_over is not None:
            self._check_seed_used()

    # -- sections ----------------------------------------------------------
    def _firmware(self, fw):
        """program (ours, or a target of an out-of-tree `cmake` project) or
        elf (a prebuilt ELF); the program name and the ELF path may hold
        placeholders (checked again once filled: runs())."""
        _keys(fw, "firmware", ("program", "elf", "cmake", "build", "params"))
        if ("program" in fw) == ("elf" in fw):
            _fail("firmware", "needs exactly one of program (a program name) and elf (a prebuilt ELF file)")
        self.fw = {"program": None, "elf": None, "cmake": None,
                   "build": _scalar_map(fw.get("build"), "firmware.build"),
                   "params": _scalar_map(fw.get("params"), "firmware.params")}
        if "elf" in fw:
            for k in ("build", "cmake"):
                if k in fw:
                    _fail(f"firmware.{k}", "makes no sense with elf (a prebuilt ELF is built already)")
            if not isinstance(fw["elf"], str) or not fw["elf"].strip():
                _fail("firmware.elf", "must be the path of an ELF file")
            self.fw["elf"] = fw["elf"]
            return
        prog = fw["program"]
        if not isinstance(prog, str) or not _PROGRAM.fullmatch(re.sub(r"\{[^{}]*\}", "x", prog)):
            _fail("firmware.program", "must be a program name such as net_ping (firmware/apps/) "
                  "or a template such as {stack}_ping")
        self.fw["program"] = prog
        if "cmake" in fw:
            self.fw["cmake"] = self._cmake_dir(fw["cmake"])

    def _cmake_dir(self, d):
        """An out-of-tree CMake project: a folder with a CMakeLists.txt."""
        if not isinstance(d, str) or not d.strip():
            _fail("firmware.cmake", "must be the path of a CMake source folder")
        path = resolve_path(self.dir, d)
        if not os.path.isfile(os.path.join(path, "CMakeLists.txt")):
            _fail("firmware.cmake", f"{d}: no CMakeLists.txt in {path}")
        return path

    def _board(self, b):
        _keys(b, "board", ("set", "mode", "energy", "max_time", "timeout", "expect_exit"))
        out = {"set": _scalar_map(b.get("set"), "board.set"),
               "mode": b.get("mode", "timed"), "energy": b.get("energy"),
               "max_time": b.get("max_time"), "timeout": b.get("timeout", 600),
               "expect_exit": b.get("expect_exit", [0])}
        for k in ("mode", "energy", "max_time"):
            if out[k] is not None and not isinstance(out[k], str):
                _fail(f"board.{k}", "must be a string")
        if out["max_time"] is not None and "{" not in out["max_time"]:
            _check_max_time(out["max_time"], "")
        if not _PLACEHOLDER.match(out["mode"]) and out["mode"] not in _MODES:
            _fail("board.mode", f"'{out['mode']}' is not timed or functional")
        t = out["timeout"]
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t <= 0:
            _fail("board.timeout", "must be a positive number of wall-clock seconds")
        ee = out["expect_exit"]
        if isinstance(ee, int) and not isinstance(ee, bool):
            ee = out["expect_exit"] = [ee]
        if not isinstance(ee, list) or not ee or not all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 255 for x in ee):
            _fail("board.expect_exit", "must be an exit status 0..255 or a list of them")
        self.board = out

    def _network(self, n):
        _keys(n, "network", ("scenario", "topology", "patch", "tap"))
        if sum(k in n for k in ("scenario", "topology", "tap")) > 1:
            _fail("network", "scenario, topology and tap exclude each other")
        self.scenario = None
        self.patch = {}
        self.tap = None
        if "topology" in n:
            self._topology(n["topology"])
        if "tap" in n:
            if not isinstance(n["tap"], str) or not n["tap"]:
                _fail("network.tap", "must be the name of a TAP device (scripts/netns-tap)")
            self.tap = n["tap"]
        if "scenario" in n:
            self.scenario, _ = self._network_doc("scenario", n["scenario"], "must be a JSON object")
        if "patch" in n:
            if self.scenario is None and self.topology is None:
                _fail("network.patch", "needs network.scenario or network.topology")
            p = n["patch"]
            if not isinstance(p, dict):
                _fail("network.patch", "must be a mapping of scenario paths to values")
            for k, v in p.items():
                if not isinstance(k, str) or not k:
                    _fail("network.patch", f"key {k!r} is not a path such as experiments.ping64.size")
                try:   # a topology's paths may lead into repeat items: checked per run
                    if self.scenario is not None:
                        _patch(copy.deepcopy(self.scenario), k, v)
                except KeyError as e:
                    _fail(f"network.patch.{k}", str(e.args[0]))
            self.patch = dict(p)

    def _network_doc(self, key, v, shape):
        """network.scenario or network.topology: a JSON file (relative to the
        experiment file) or an inline mapping, which must be an object
        (`shape`: the message if not). (The document, the folder its
        relative paths start from.)"""
        what = f"network.{key}"
        if isinstance(v, str):
            path = os.path.join(self.dir, v)
            doc, folder = load_json(read_text(path, f"{what}: {v}"), f"{what}: {v}"), os.path.dirname(path)
        elif isinstance(v, dict):
            doc, folder = copy.deepcopy(v), self.dir
        else:
            _fail(what, f"must be a {key} file path or an inline {key} mapping")
        if not isinstance(doc, dict):
            _fail(what, shape)
        return doc, os.path.abspath(folder)

    def _topology(self, t):
        """network.topology: a topology file (docs/network.md) or an inline
        mapping; its template is checked here (topology.py), the filled-in
        topology by leon3vp."""
        shape = "must be a JSON object with a list of boards"
        self.topology, self.topology_dir = self._network_doc("topology", t, shape)
        if not isinstance(self.topology.get("boards"), list):
            _fail("network.topology", shape)
        self.fw["program"] = os.path.basename(t).split(".")[0] if isinstance(t, str) else "topology"

    def _grid(self, grid, zips):
        """Axes: each grid key is one axis; each zip group is one axis of
        tuples (its lists have the same length). The product runs in file
        order, the last axis fastest."""
        if not isinstance(grid, dict):
            _fail("grid", "must be a mapping of axis names to lists of values")
        if not isinstance(zips, list):
            _fail("zip", "must be a list of mappings of axis names to lists of equal length")
        self.axes = []          # [(names tuple, [value tuples])]
        seen = set()

        def values(where, name, vals, unique=True):
            if not isinstance(name, str) or not _NAME.match(name):
                _fail(where, f"axis name {name!r} must be an identifier (letters, digits, _)")
            if name in seen:
                _fail(where, f"axis {name} declared twice")
            if name in FIXED_COLUMNS:
                _fail(where, f"axis name {name} is a fixed column of the table")
            seen.add(name)
            if not isinstance(vals, list) or not vals:
                _fail(where, "must be a non-empty list of values")
            for v in vals:
                if not _scalar(v):
                    _fail(where, f"value {v!r} is not a string, number or boolean")
            if unique and len(set(map(repr, vals))) != len(vals):
                _fail(where, "has a value twice")
            return vals

        for name, vals in grid.items():
            self.axes.append(((name,), [(v,) for v in values(f"grid.{name}", name, vals)]))
        for i, group in enumerate(zips):
            where = f"zip[{i}]"
            if not isinstance(group, dict) or len(group) < 2:
                _fail(where, "must map two or more axis names to lists of equal length")
            # a zip list may repeat a value (a build option shared by
            # several configurations); its tuples may not
            cols = [values(f"{where}.{n}", n, v, unique=False) for n, v in group.items()]
            if len({len(c) for c in cols}) != 1:
                _fail(where, "lists have different lengths")
            if len(set(map(repr, zip(*cols)))) != len(cols[0]):
                _fail(where, "has a combination of values twice")
            self.axes.append((tuple(group), list(zip(*cols))))
        self.axis_names = [n for names, _ in self.axes for n in names]
        points = math.prod(len(vals) for _, vals in self.axes)
        if points > MAX_POINTS:
            _fail("grid", f"{points} points, more than the limit of {MAX_POINTS} (split the experiment)")

    def _metrics(self, m):
        if not isinstance(m, dict) or not m:
            _fail("metrics", "must map metric names to paths (stats.cycles, net.experiments.NAME.rtt_avg_ps)")
        self.metrics = []
        for name, v in m.items():
            where = f"metrics.{name}"
            if not isinstance(name, str) or not _NAME.match(name):
                _fail("metrics", f"metric name {name!r} must be an identifier")
            if name in self.axis_names or name in FIXED_COLUMNS:
                _fail(where, "name taken by an axis or a fixed column")
            self.metrics.append(self._metric(name, v, where))

    def _metric(self, name, v, where):
        if isinstance(v, str):
            v = {"path": v}
        if not isinstance(v, dict):
            _fail(where, "must be a path or a mapping with path (or sum), scale, per, diff, optional")
        _keys(v, where, ("path", "sum", "per", "scale", "diff", "optional"))
        if ("path" in v) == ("sum" in v):
            _fail(where, "needs exactly one of path and sum")
        if "sum" in v:
            paths = v["sum"]
            if not isinstance(paths, list) or not paths:
                _fail(f"{where}.sum", "must be a non-empty list of paths")
            for i, p in enumerate(paths):
                _check_path(p, f"{where}.sum[{i}]")
        else:
            paths = [v["path"]]
            _check_path(v["path"], f"{where}.path")
        per = v.get("per")
        if _is_number(per):
            if per == 0:
                _fail(f"{where}.per", "must not be 0")
        elif per is not None:
            _check_path(per, f"{where}.per")
        scale = v.get("scale")
        if scale is not None and not _is_number(scale):
            _fail(f"{where}.scale", "must be a number")
        if not isinstance(v.get("optional", False), bool):
            _fail(f"{where}.optional", "must be true or false")
        diff = self._diff(v["diff"], f"{where}.diff") if "diff" in v else None
        return Metric(name, v.get("path", "+".join(paths)), scale, v.get("optional", False), paths=paths,
                      per=per, diff=diff)

    def _diff(self, d, where):
        """{axis: [a, b]} -> (axis, a, b): the run at a minus the run at b.
        The axis must be a grid axis of its own: in a zip group the other
        axes change with it, so no two runs differ in it alone."""
        if not isinstance(d, dict) or len(d) != 1:
            _fail(where, "must be {AXIS: [A, B]}: the run at AXIS=A minus the run at AXIS=B")
        (axis, pair), = d.items()
        values = {names: vals for names, vals in self.axes}.get((axis,))
        if values is None:
            why = "part of a zip group" if axis in self.axis_names else "not an axis of the grid"
            _fail(f"{where}.{axis}", f"{why} (a diff needs a grid axis of its own)")
        if not isinstance(pair, list) or len(pair) != 2 or repr(pair[0]) == repr(pair[1]):
            _fail(f"{where}.{axis}", "must be a list of two different values [A, B] (A minus B)")
        for x in pair:
            if (x,) not in values:
                _fail(f"{where}.{axis}", f"{x!r} is not a value of axis {axis}")
        return axis, pair[0], pair[1]

    def _statistics(self, st):
        """statistics: {over: AXIS}: the runs differ only in AXIS (a
        seed of the stochastic impairments) are repetitions; summary.csv
        has their mean, standard deviation and 95 % confidence interval
        per cell of the other axes (stats.py). AXIS must be a grid axis of
        its own with at least two distinct integer seeds 0..2^32-1."""
        self.stats_over = None
        if st is None:
            return
        _keys(st, "statistics", ("over",), required=("over",))
        axis = st["over"]
        where = "statistics.over"
        if not isinstance(axis, str) or axis not in self.axis_names:
            _fail(where, f"{axis!r} is not an axis of the grid ({', '.join(self.axis_names) or 'none'})")
        values = {names: vals for names, vals in self.axes}.get((axis,))
        if values is None:
            _fail(where, f"axis {axis} is part of a zip group (the seeds need a grid axis of their own)")
        seeds = [v for (v,) in values]
        bad = [v for v in seeds if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_SEED]
        if bad:
            _fail(f"grid.{axis}", f"seed {bad[0]!r} is not an integer 0..{MAX_SEED}")
        if len(seeds) < 2:
            _fail(f"grid.{axis}", "needs at least two seeds (a standard deviation needs two runs)")
        for m in self.metrics:
            if m.diff is not None and m.diff[0] == axis:
                _fail(f"metrics.{m.name}.diff", f"differences over the seed axis {axis} are not a "
                      "measurement (statistics.over)")
        self.stats_over = axis

    def _check_seed_used(self):
        """The seed axis must fill a key named *seed* (link.to_host.seed,
        net.to_board.seed, a firmware parameter seed): otherwise every
        "repetition" is the same deterministic run."""
        axis = self.stats_over
        for where, obj in self._templated():
            for w, _, name, _, _ in _fields(obj, where):
                last = re.sub(r"\[\d+\]$", "", w).rsplit(".", 1)[-1]
                if name == axis and "seed" in last.lower():
                    return
        _fail("statistics.over", f"axis {axis} fills no seed key (e.g. network.scenario link.to_host.seed: "
              f'"{{{axis}}}" or board.set net.to_host.seed: "{{{axis}}}"): its runs would all be equal')

    def _plots(self, plots):
        if not isinstance(plots, list):
            _fail("plots", "must be a list")
        columns = set(self.axis_names) | {m.name for m in self.metrics} | set(FIXED_COLUMNS)
        names = set()
        self.plots = []
        for i, p in enumerate(plots):
            where = f"plots[{i}]"
            _keys(p, where, ("name", "x", "y", "hue", "facet", "kind", "title", "xlabel", "ylabel",
                             "logx", "logy"), required=("name", "x", "y"))
            d = {"hue": None, "facet": None, "kind": "line", "title": None, "xlabel": None,
                 "ylabel": None, "logx": False, "logy": False}
            d.update(p)
            if not isinstance(d["name"], str) or not _EXPERIMENT_NAME.match(d["name"]) or d["name"] in names:
                _fail(f"{where}.name", "must be a unique file name (letters, digits, _ . -)")
            names.add(d["name"])
            for k in ("x", "y", "hue", "facet"):
                if d[k] is not None and d[k] not in columns:
                    _fail(f"{where}.{k}", f"'{d[k]}' is not an axis or metric of this experiment")
                if d[k] is not None and d[k] == self.stats_over:
                    _fail(f"{where}.{k}", f"'{d[k]}' is the seed axis (statistics.over): plots show "
                          "the mean over it with error bars")
            if d["kind"] not in PLOT_KINDS:
                _fail(f"{where}.kind", f"must be one of {', '.join(PLOT_KINDS)}")
            for k in ("logx", "logy"):
                if not isinstance(d[k], bool):
                    _fail(f"{where}.{k}", "must be true or false")
            self.plots.append(Plot(d))

    def _check_placeholders(self):
        """Every {name} refers to an axis, and every axis is used somewhere
        (an unused axis would only repeat identical deterministic runs)."""
        used = set()
        for where, names, obj in self._placeholder_uses():
            for name in names:
                if name not in self.axis_names:
                    _fail(where, f"placeholder {{{name}}} is not an axis of the grid")
                used.add(name)
            if obj is not None:
                self._check_formats(obj, where)
        for name in self.axis_names:
            if name not in used:
                _fail(f"grid.{name}", "axis is used by no {placeholder} (firmware, board or network)")

    def _placeholder_uses(self):
        """(where, the axis names it uses, the object whose format specs to
        check or None), in file order: the templated keys, then a topology
        template (its own rules: topology.py, {i} and {name+K} included)."""
        for where, obj in self._templated():
            yield where, _placeholders(obj, where), obj
        if self.topology is not None:
            try:
                yield "network.topology", _topology.placeholders(self.topology, "network.topology"), None
            except _topology.TopologyError as e:
                _fail(*e.args)

    def _check_formats(self, obj, where):
        """A {name!conv:spec} must format every value of its axis."""
        for w, text, name, conv, fmt in _fields(obj, where):
            if conv is None and not fmt:
                continue
            if conv not in (None, "s", "r", "a"):
                _fail(w, f"'{text}': placeholder {{{name}!{conv}}}: conversion must be !s, !r or !a")
            if any(int(n) > MAX_FORMAT_WIDTH for n in re.findall(r"\d+", fmt)):
                _fail(w, f"'{text}': placeholder {{{name}:{fmt}}}: width above {MAX_FORMAT_WIDTH}")
            for v in self._axis_values(name):
                try:
                    ("{0!%s:%s}" % (conv, fmt) if conv else "{0:%s}" % fmt).format(v)
                except (ValueError, TypeError, LookupError) as e:
                    _fail(w, f"'{text}': placeholder {{{name}}} cannot format {v!r} ({e})")

    def _axis_values(self, name):
        for names, vals in self.axes:
            if name in names:
                return [t[names.index(name)] for t in vals]
        return []

    def _templated(self):
        for k in ("program", "elf"):
            if self.fw[k] is not None:
                yield f"firmware.{k}", self.fw[k]
        yield "firmware.build", self.fw["build"]
        yield "firmware.params", self.fw["params"]
        for k in ("set", "mode", "energy", "max_time"):
            yield f"board.{k}", self.board[k]
        if self.scenario is not None:
            yield "network.scenario", self.scenario
        yield "network.patch", self.patch

    # -- the grid ----------------------------------------------------------
    def runs(self):
        """Every point of the grid as a Run, in grid order."""
        out = []
        for i, combo in enumerate(itertools.product(*[vals for _, vals in self.axes])):
            params = {}
            for (names, _), tup in zip(self.axes, combo):
                params.update(zip(names, tup))
            fill = lambda obj: _fill(obj, params)  # noqa: E731
            board = {k: fill(self.board[k]) for k in ("set", "mode", "energy", "max_time")}
            board["timeout"] = self.board["timeout"]
            board["expect_exit"] = list(self.board["expect_exit"])
            if board["max_time"] is not None and board["max_time"] != self.board["max_time"]:
                _check_max_time(board["max_time"], " (from the grid)")
            if board["mode"] not in _MODES:
                raise SpecError(f"board.mode: '{board['mode']}' (from the grid) is not timed or functional")
            network = {}
            if self.scenario is not None:
                scen = fill(self.scenario)
                for k, v in self.patch.items():
                    _patch(scen, k, fill(v))
                network["scenario"] = scen
            if self.tap is not None:
                network["tap"] = self.tap
            if self.topology is not None:
                network["topology"] = self._run_topology(params)
            fw = self._run_firmware(fill)
            out.append(Run(i, params, fw, board, network))
        return out

    def _run_topology(self, params):
        """The run's topology: the template filled in, repeat items
        expanded, then network.patch applied."""
        try:
            topo = _topology.fill(self.topology, params)
        except _topology.TopologyError as e:
            raise SpecError(f"{e.args[0]}: {e.args[1]} (from the grid)") from None
        for k, v in self.patch.items():
            try:
                _patch(topo, k, _fill(v, params))
            except KeyError as e:
                raise SpecError(f"network.patch.{k}: {e.args[0]} (from the grid)") from None
        return topo

    def _run_firmware(self, fill):
        """A run's firmware, placeholders filled: the program name (for an
        ELF: its file name without .elf) and the ELF's absolute path."""
        fw = {"program": None, "elf": None, "cmake": self.fw["cmake"], "build": fill(self.fw["build"]),
              "params": fill(self.fw["params"])}
        if self.topology is not None:
            fw["program"] = self.fw["program"]
        elif self.fw["elf"] is not None:
            fw["elf"] = resolve_path(self.dir, str(fill(self.fw["elf"])))
            base = os.path.basename(fw["elf"])
            fw["program"] = re.sub(r"[^A-Za-z0-9_.-]", "_", base[:-4] if base.endswith(".elf") else base) or "elf"
        else:
            fw["program"] = str(fill(self.fw["program"]))
            if not _PROGRAM.fullmatch(fw["program"]):
                raise SpecError(f"firmware.program: '{fw['program']}' (from the grid) is not a program name")
        return fw


def _check_max_time(v, origin):
    """board.max_time: a positive duration as leon3vp takes it (10s, 500ms)."""
    try:
        ok = isinstance(v, str) and _units.parse_duration_ps(v) > 0
    except ValueError:
        ok = False
    if not ok:
        _fail("board.max_time", f"'{v}'{origin} is not a positive duration such as 10s, 500ms, 20us")


def _placeholders(obj, where):
    if isinstance(obj, str):
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(obj) if f is not None]
        except ValueError as e:
            _fail(where, f"'{obj}': {e} (write {{{{ and }}}} for literal braces)")
        for f in fields:
            if not _NAME.match(f):
                _fail(where, f"'{obj}': placeholder {{{f}}} must be a plain axis name")
        return fields
    if isinstance(obj, dict):
        return [n for k, v in obj.items() for n in _placeholders(v, f"{where}.{k}")]
    if isinstance(obj, list):
        return [n for i, v in enumerate(obj) for n in _placeholders(v, f"{where}[{i}]")]
    return []


def _fields(obj, where):
    """(where, text, name, conversion, format spec) of every placeholder."""
    if isinstance(obj, str):
        return [(where, obj, f, c, fmt or "") for _, f, fmt, c in string.Formatter().parse(obj)
                if f is not None]
    if isinstance(obj, dict):
        return [x for k, v in obj.items() for x in _fields(v, f"{where}.{k}")]
    if isinstance(obj, list):
        return [x for i, v in enumerate(obj) for x in _fields(v, f"{where}[{i}]")]
    return []


def _fill(obj, params):
    """Placeholders filled: a string that is exactly "{axis}" becomes the
    axis value with its type (64 stays a number); any other string is
    formatted (str.format) with the axis values."""
    if isinstance(obj, str):
        m = _PLACEHOLDER.match(obj)
        if m:
            return params[m.group(1)]
        return obj.format_map(params)
    if isinstance(obj, dict):
        return {k: _fill(v, params) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_fill(v, params) for v in obj]
    return obj


def _patch(doc, path, value):
    """doc[path] = value for a dotted path; a list element is chosen by its
    index or by its "name" (experiments.ping64.size). The parent must exist."""
    keys = path.split(".")
    cur = doc
    for i, k in enumerate(keys[:-1]):
        cur = _step(cur, k, ".".join(keys[:i + 1]))
        if cur is None:
            raise KeyError(f"no {'.'.join(keys[:i + 1])} in the scenario")
    last = keys[-1]
    if isinstance(cur, list):
        idx = _list_index(cur, last)
        if idx is None:
            raise KeyError(f"no {path} in the scenario")
        cur[idx] = value
    elif isinstance(cur, dict):
        cur[last] = value
    else:
        raise KeyError(f"{'.'.join(keys[:-1])} is not an object")


def _list_index(lst, key):
    if re.fullmatch(r"\d+", key):
        i = int(key)
        return i if i < len(lst) else None
    for i, e in enumerate(lst):
        if isinstance(e, dict) and e.get("name") == key:
            return i
    return None


def _step(cur, key, where):
    if isinstance(cur, dict):
        return cur.get(key)
    if isinstance(cur, list):
        i = _list_index(cur, key)
        return None if i is None else cur[i]
    return None


def load(path):
    """Read and validate an experiment file -> Experiment (SpecError)."""
    doc = load_yaml(read_text(path, path), path)
    if not isinstance(doc, dict):
        raise SpecError(f"{path}: must be a YAML mapping (experiment:, firmware:, metrics:, ...)")
    return Experiment(path, doc)
