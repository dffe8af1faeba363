"""leon3vp waveforms (--vcd) as per-signal value-change lists, read with
pyvcd's tokenizer (never a hand-written parser): the reader of the waveform
tests, scripts/wave and scripts/wave-screenshot.

    w = Wave("run.vcd")                # a path or a binary stream
    w["board.timer.t1.underflow"]      # [(t_ps, value), ...] in file order
    w.rises("board.irq.line8")         # times of 0 -> nonzero
    w.spans("board.link.to_host.wire") # [(start, end), ...]; end None: still high
    w.at("board.irq.irl", t)           # the value after every change at <= t

Loading raises AssertionError when the time stamps do not increase.
"""
import bisect
import contextlib
import os
import sys


def _pylib():
    """Where scripts/setup installs the pip packages (its L3VP_PYLIB)."""
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.environ.get("L3VP_PYLIB") or os.path.join(data, "leon3vp", "python")


try:
    from vcd.reader import TokenKind, tokenize
except ImportError:
    sys.path.append(_pylib())
    try:
        from vcd.reader import TokenKind, tokenize
    except ImportError as e:
        raise ImportError(f"cannot import pyvcd ({e}); run scripts/setup (it installs pyvcd into "
                          f"{_pylib()})") from None

def header(stream):
    """(comments, {full signal name: id code}, tokens) of a VCD read from a
    binary stream up to $enddefinitions; `tokens` is pyvcd's token iterator
    positioned after it (for a caller that reads on: ScalarChange tokens
    carry .scalar_change.id_code and .value). ValueError when the stream
    ends (or pyvcd gives up) before $enddefinitions: not a VCD."""
    comments, ids, scope = [], {}, []
    tokens = tokenize(stream)
    try:
        for tok in tokens:
            k = tok.kind
            if k is TokenKind.COMMENT:
                comments.append(tok.comment.strip())
            elif k is TokenKind.SCOPE:
                scope.append(tok.scope.ident)
            elif k is TokenKind.UPSCOPE:
                if scope:
                    scope.pop()
            elif k is TokenKind.VAR:
                ids[".".join(scope + [tok.var.reference])] = tok.var.id_code
            elif k is TokenKind.ENDDEFINITIONS:
                return comments, ids, tokens
    except Exception as e:  # pyvcd's parse errors have no common base
        raise ValueError(f"not a VCD file ({e})") from None
    raise ValueError("no $enddefinitions: not a VCD file")


def sets_high(tokens, id_code):
    """True if a scalar change in `tokens` (header()'s) sets `id_code` to 1."""
    for tok in tokens:
        if tok.kind is TokenKind.CHANGE_SCALAR and tok.scalar_change.id_code == id_code \
                and tok.scalar_change.value == "1":
            return True
    return False


_UNIT_PS = {"s": 10**12, "ms": 10**9, "us": 10**6, "ns": 10**3, "ps": 1}


def _value(v):
    """pyvcd's value as an int where it is one ('0'/'1' scalars, binary
    vectors); strings and x/z stay strings."""
    if isinstance(v, int):
        return v
    if v in ("0", "1"):
        return int(v)
    return v


class Wave:
    def __init__(self, path):
        self.path = getattr(path, "name", path)
        self.changes = {}     # full name -> [(t_ps, value)]
        self.widths = {}      # full name -> width (strings: "string")
        self.comments = []
        self.dump_time = None  # time of $dumpvars
        self.times = []       # every #time in file order
        codes = {}            # id code -> [full names]
        scope = []
        scale = 1
        t = 0
        with open(path, "rb") if isinstance(path, str) else contextlib.nullcontext(path) as f:
            for tok in tokenize(f):
                k = tok.kind
                if k is TokenKind.COMMENT:
                    self.comments.append(tok.comment.strip())
                elif k is TokenKind.TIMESCALE:
                    ts = tok.timescale
                    scale = int(ts.magnitude) * _UNIT_PS[ts.unit.value]
                elif k is TokenKind.SCOPE:
                    scope.append(tok.scope.ident)
                elif k is TokenKind.UPSCOPE:
                    scope.pop()
                elif k is TokenKind.VAR:
                    v = tok.var
                    name = ".".join(scope + [v.reference])
                    codes.setdefault(v.id_code, []).append(name)
                    self.changes[name] = []
                    self.widths[name] = "string" if v.type_.value == "string" else v.size
                elif k is TokenKind.CHANGE_TIME:
                    t = tok.time_change * scale
                    # A VCD's time stamps increase (IEEE 1364 18.2.1): an
                    # unsorted file reads fine here but not in GTKWave.
                    if self.times and t <= self.times[-1]:
                        raise AssertionError(f"{path}:{tok.span.start.line}: time #{tok.time_change} "
                                             f"after #{self.times[-1] // scale}")
                    self.times.append(t)
                elif k is TokenKind.DUMPVARS:
                    self.dump_time = t
                elif k in (TokenKind.CHANGE_SCALAR, TokenKind.CHANGE_VECTOR, TokenKind.CHANGE_STRING):
                    c = tok.data
                    for name in codes[c.id_code]:
                        self.changes[name].append((t, _value(c.value)))
        self.end = self.times[-1] if self.times else 0

    def __contains__(self, name):
        return name in self.changes

    def __getitem__(self, name):
        try:
            return self.changes[name]
        except KeyError:
            raise AssertionError(f"{self.path}: no signal {name}") from None

    def names(self, prefix=""):
        return [n for n in self.changes if n.startswith(prefix)]

    def transitions(self, name):
        """The changes that change the value: [(t, old, new)] (the initial
        dump counts as a transition from None)."""
        out, cur = [], None
        for t, v in self[name]:
            if v != cur:
                out.append((t, cur, v))
                cur = v
        return out

    def rises(self, name):
        return [t for t, old, new in self.transitions(name) if old in (None, 0) and new not in (0, None)]

    def pulses(self, name):
        """[(t, value, width)] of every nonzero span (width None: open)."""
        out, start, val = [], None, 0
        for t, old, new in self.transitions(name):
            if start is not None and new != val:
                out.append((start, val, t - start))
                start = None
            if new not in (0, None) and start is None:
                start, val = t, new
        if start is not None:
            out.append((start, val, None))
        return out

    def spans(self, name):
        return [(s, None if w is None else s + w) for s, _, w in self.pulses(name)]

    def at(self, name, t):
        """The value after every change dated <= t (None before the first)."""
        ch = self[name]
        i = bisect.bisect_right([c[0] for c in ch], t)
        v = None
        for _, x in ch[:i]:
            v = x
        return v
