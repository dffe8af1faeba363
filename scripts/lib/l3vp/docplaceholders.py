"""Placeholders left in the docs (scripts/doc-placeholders; CTest
`docs.placeholders`): text that a generator or an author meant to fill in
and nobody did.

Outside code blocks, inline code spans and HTML comments it reports
* an ALL_CAPS_WITH_UNDERSCORE token right before a unit (`UDP_OFF µs`),
* TODO, TBD, FIXME, XXX as words,
* a `{name}` or `{name:.1f}` template field,
* `??`;
and an inline code span holding only an ALL_CAPS_WITH_UNDERSCORE token
right before a unit (`` `UDP_OFF` µs ``), unless the allowlist names the
token: a file of lines `TOKEN` or `PATH:TOKEN` (`#` starts a comment).

Each finding is one line `PATH:LINE: what: the text`.
"""
import os
import re

UNITS = (r"(?:µs|us|ns|ps|ms|s|B|KiB|MiB|kB|MB|GB|bytes|cycles|instructions|Mbit/s|kbit/s|MB/s|"
         r"%|nJ|pJ|fJ|mW|W|MHz|Hz)")
CAPS = r"[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]"
RULES = (
    ("placeholder before a unit", re.compile(rf"(?<![\w`=/.-])({CAPS})\s*{UNITS}(?![\w/])")),
    ("unfinished-work marker", re.compile(r"\b(TODO|TBD|FIXME|XXX)\b")),
    ("template field", re.compile(r"(?<![{\\$])(\{[A-Za-z_][A-Za-z0-9_]*(?::[^{}\s]*)?\})(?!\})")),
    ("question marks", re.compile(r"(\?\?)")),
)
SPAN_RULE = re.compile(rf"`({CAPS})`\s*{UNITS}(?![\w/])")


def default_files(root):
    """README.md, docs/*.md and the READMEs of the models, the simulator,
    the firmware and the experiments."""
    out = [os.path.join(root, "README.md")]
    out += sorted(os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs"))
                  if f.endswith(".md"))
    for top in ("models", "sim", "firmware", "experiments", "rtl", "testbenches"):
        for d, dirs, files in sorted(os.walk(os.path.join(root, top))):
            dirs.sort()
            out += [os.path.join(d, f) for f in files if f == "README.md"]
    return [p for p in out if os.path.isfile(p)]


def load_allow(path):
    """{(path or None, token)} from an allowlist file."""
    allow = set()
    if not path:
        return allow
    with open(path) as f:
        for ln in f:
            ln = ln.split("#", 1)[0].strip()
            if ln:
                p, _, tok = ln.rpartition(":")
                allow.add((p or None, tok))
    return allow


def _mask(text, pattern):
    """The text with every match of `pattern` blanked out (same length,
    newlines kept, so line numbers stay)."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


# a code span may run over lines of one paragraph, not over a blank line
CODE_SPAN = re.compile(r"(`+)(?!`)(?:(?!\n\s*\n).)*?(?<!`)\1(?!`)", re.S)
COMMENT = re.compile(r"<!--.*?-->", re.S)


def _without_code_blocks(lines):
    """The lines with fenced code blocks blanked."""
    out, fence = [], None
    for ln in lines:
        f = re.match(r"\s*(```+|~~~+)", ln)
        if f and (fence is None or f.group(1)[0] == fence[0] and len(f.group(1)) >= len(fence)):
            fence = f.group(1) if fence is None else None
            out.append("")
            continue
        out.append("" if fence is not None else ln)
    return out


def check_lines(rel, lines, allow=frozenset()):
    """The findings of one file's lines, as 'rel:LINE: what: text'."""
    def allowed(tok):
        return (rel, tok) in allow or (None, tok) in allow

    text = _mask("\n".join(_without_code_blocks(lines)), COMMENT)
    prose = _mask(text, CODE_SPAN)
    out = []
    for i, (ln, pl) in enumerate(zip(text.split("\n"), prose.split("\n")), 1):
        out += [f"{rel}:{i}: placeholder in a code span before a unit: {m.group(0)}"
                for m in SPAN_RULE.finditer(ln) if not allowed(m.group(1))]
        for what, rx in RULES:
            out += [f"{rel}:{i}: {what}: {m.group(0).strip()}" for m in rx.finditer(pl) if not allowed(m.group(1))]
    return out


def check_files(root, paths, allow=frozenset()):
    out = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            lines = f.read().split("\n")
        out += check_lines(os.path.relpath(p, root), lines, allow)
    return out
