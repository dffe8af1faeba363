"""Topology experiments: `network.topology` (docs/experiments.md,
"Several boards").

A topology (docs/network.md, "Topologies") names each board's ELF, so such
an experiment has no `firmware` section. Its template may hold grid
placeholders anywhere and, as an element of any list, a repeat item:

    {"repeat": "{n}", "name": "s{i}", "port": "{i+5001}", ...}

stands for n copies of the item without the "repeat" key, with {i} = 0 ..
n-1 filled in each. A string that is exactly "{name+K}" or "{name-K}"
becomes the integer value of an axis (or of i) plus or minus K, so that
ports, addresses' last bytes and switch port counts can follow the grid.

Each board's ELF is looked up as given (an absolute path), beside the
topology (its file's folder, or the experiment's for an inline one), or
in --fw-dir; the task carries the ELFs' bytes under their file names, and
the worker runs leon3vp on the topology with no firmware argument.
"""
import os
import re
import string

_EXACT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:([+-])(\d{1,9}))?\}\Z")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
MAX_REPEAT = 64        # leon3vp's own limit of boards (and of hosts) in a topology
TOP_LEVEL = ("boards", "hosts", "switches", "taps", "links", "run")   # --stats of a topology run


class TopologyError(Exception):
    """(where, message): spec.py makes it a SpecError."""


def placeholders(obj, where, loop=False):
    """The axis names a topology template uses ({i} only inside a repeat
    item, where `loop` is true); raises TopologyError for a malformed one."""
    if isinstance(obj, str):
        return _string_names(obj, where, loop)
    if isinstance(obj, dict):
        if "repeat" in obj:
            raise TopologyError(where, "repeat is an element of a list (a repeat item), not a key here")
        return [n for k, v in obj.items() for n in placeholders(v, f"{where}.{k}", loop)]
    if isinstance(obj, list):
        out = []
        for i, v in enumerate(obj):
            w = f"{where}[{i}]"
            if isinstance(v, dict) and "repeat" in v:
                if loop:
                    raise TopologyError(w, "a repeat item inside a repeat item")
                out += placeholders(v["repeat"], f"{w}.repeat", False)
                item = {k: x for k, x in v.items() if k != "repeat"}
                out += placeholders(item, w, True)
            else:
                out += placeholders(v, w, loop)
        return out
    return []


def _string_names(text, where, loop):
    m = _EXACT.match(text)
    if m:
        fields = [m.group(1)]
    else:
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
        except ValueError as e:
            raise TopologyError(where, f"'{text}': {e} (write {{{{ and }}}} for literal braces)") from None
        for f in fields:
            if not _NAME.match(f):
                raise TopologyError(where, f"'{text}': placeholder {{{f}}} must be a plain name; "
                                    "{name+K} only as the whole string")
    if "i" in fields and not loop:
        raise TopologyError(where, f"'{text}': {{i}} is defined only inside a repeat item")
    return [f for f in fields if not (loop and f == "i")]


def fill(obj, params, where="network.topology"):
    """The template with every placeholder filled and every repeat item
    expanded (raises TopologyError: a repeat count that is not a whole
    number 0..MAX_REPEAT, an offset on a value that is not an integer)."""
    if isinstance(obj, str):
        m = _EXACT.match(obj)
        if not m:
            return obj.format_map(params)
        v = params[m.group(1)]
        if m.group(2) is None:
            return v
        if isinstance(v, bool) or not isinstance(v, int):
            raise TopologyError(where, f"'{obj}': {m.group(1)} = {v!r} is not an integer")
        return v + int(m.group(3)) if m.group(2) == "+" else v - int(m.group(3))
    if isinstance(obj, dict):
        return {k: fill(v, params, f"{where}.{k}") for k, v in obj.items()}
    if isinstance(obj, list):
        out = []
        for i, v in enumerate(obj):
            if isinstance(v, dict) and "repeat" in v:
                out += _expand(v, params, f"{where}[{i}]")
            else:
                out.append(fill(v, params, f"{where}[{i}]"))
        return out
    return obj


def _expand(item, params, where):
    n = fill(item["repeat"], params, f"{where}.repeat")
    if isinstance(n, str) and re.fullmatch(r"\d{1,3}", n):
        n = int(n)
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_REPEAT:
        raise TopologyError(f"{where}.repeat", f"{n!r} is not a number of copies 0..{MAX_REPEAT}")
    body = {k: v for k, v in item.items() if k != "repeat"}
    return [fill(body, dict(params, i=i), where) for i in range(n)]


def board_elves(topo):
    """[(board name, elf as written)] of a filled-in topology."""
    boards = topo.get("boards") if isinstance(topo, dict) else None
    if not isinstance(boards, list):
        raise TopologyError("network.topology.boards", "must be a list of boards (each with name and elf)")
    out = []
    for i, b in enumerate(boards):
        if not isinstance(b, dict) or not isinstance(b.get("elf"), str) or not b["elf"]:
            raise TopologyError(f"network.topology.boards[{i}]", "needs an \"elf\" (the board's firmware)")
        out.append((str(b.get("name", i)), b["elf"]))
    return out


def resolve_elf(elf, topo_dir, fw_dir):
    """The path of a board's ELF: absolute as given, else beside the
    topology, else in --fw-dir; None if none exists."""
    if os.path.isabs(elf):
        return elf if os.path.isfile(elf) else None
    for base in (topo_dir, fw_dir):
        if base and os.path.isfile(os.path.join(base, elf)):
            return os.path.abspath(os.path.join(base, elf))
    return None


def with_local_elves(topo, names):
    """A copy of the topology whose boards name their ELFs by the file
    names the task ships them under (`names`: elf as written -> name)."""
    out = dict(topo)
    out["boards"] = [dict(b, elf=names[b["elf"]]) for b in topo["boards"]]
    return out


def stats_path_in_schema(path, in_schema):
    """Whether a --stats path of a topology run can exist: boards.NAME.rest
    by the single-board schema (`in_schema(rest)`), the network's own
    sections (hosts, switches, links, taps, run) as they come."""
    steps = path.split(".")
    if steps[0] == "boards":
        return len(steps) <= 2 or in_schema(".".join(steps[2:]))
    return steps[0] in TOP_LEVEL


def split_uart(text):
    """A topology run's UART output ("NAME: line" per line) per board."""
    out = {}
    for line in text.splitlines():
        name, sep, rest = line.partition(": ")
        if sep and _NAME.match(name):
            out.setdefault(name, []).append(rest)
    return {k: "\n".join(v) + "\n" for k, v in out.items()}
