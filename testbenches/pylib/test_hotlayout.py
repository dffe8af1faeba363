"""scripts/hot-layout: its I-cache model against an independent LRU model,
the GNU ld map reader, and the miss count of a program as a function of the
section order (a layout that puts three hot lines in one set of the 2-way
cache must miss on every pass, one that spreads them must not)."""
import importlib.machinery
import importlib.util
import os
import random

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "hot-layout")


def load():
    loader = importlib.machinery.SourceFileLoader("hot_layout", SCRIPT)
    spec = importlib.util.spec_from_loader("hot_layout", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


hl = load()


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return hl.icsim_lib(str(tmp_path_factory.mktemp("icsim")))


def lru_misses(addrs, from_index):
    """Reference: 2 ways x 128 sets x 32 bytes, LRU, one fetch per address;
    a repeated fetch of the line just fetched is not a new access."""
    sets = [[] for _ in range(128)]
    misses, last = 0, None
    for i, a in enumerate(addrs):
        line = a >> 5
        if line == last:
            continue
        last = line
        ways = sets[line & 127]
        if line in ways:
            ways.remove(line)
        else:
            if len(ways) == 2:
                ways.pop()
            if i >= from_index:
                misses += 1
        ways.insert(0, line)
    return misses


def test_icsim_matches_an_independent_lru_model(lib):
    import ctypes
    rng = random.Random(5)
    for trial in range(20):
        base = [0x40000000 + rng.randrange(0, 1 << 16) * 4 for _ in range(6)]
        runs, addrs, first_of_run = [], [], []
        for _ in range(300):
            j = rng.randrange(-1, 6)
            s = rng.randrange(0, 4096) * 4
            e = s + rng.randrange(0, 40) * 4
            runs.append((j, s, e))
            first_of_run.append(len(addrs))
            b = 0 if j < 0 else base[j]
            addrs += list(range(b + s, b + e + 1, 4))
        frm = rng.randrange(0, 300)
        flat = (ctypes.c_int32 * (3 * len(runs)))(*[x for r in runs for x in r])
        cbase = (ctypes.c_uint32 * 6)(*base)
        got = lib.icsim(flat, len(runs), cbase, frm)
        assert got == lru_misses(addrs, first_of_run[frm]), trial


MAP = """Archive member included to satisfy reference by file (symbol)
Linker script and memory map

.text           0x40000000     0x3040
 .text.traptable
                0x40000000       0x20 crt0.o
 .text.f1       0x40000020       0x20 a.o
 .text.pad1     0x40000040      0xfe0 a.o
 .text.f2       0x40001020       0x20 b.o
 .text.pad2     0x40001040      0xfe0 b.o
 .text.f3       0x40002020       0x20 c.o
 .text.empty    0x40002040        0x0 c.o
 .text.f1       0x40002040     0x1000 d.o
.rodata         0x40003040      0x100
 .rodata.x      0x40003040      0x100 a.o
"""


def test_parse_map_reads_text_input_sections(tmp_path):
    m = tmp_path / "p.map"
    m.write_text(MAP)
    secs = hl.parse_map(str(m))
    assert secs == [(".text.traptable", 0x40000000, 0x20), (".text.f1", 0x40000020, 0x20),
                    (".text.pad1", 0x40000040, 0xfe0), (".text.f2", 0x40001020, 0x20),
                    (".text.pad2", 0x40001040, 0xfe0), (".text.f3", 0x40002020, 0x20),
                    (".text.f1#2", 0x40002040, 0x1000)]


def test_not_a_map_is_an_error(tmp_path):
    m = tmp_path / "x.map"
    m.write_text("hello\n")
    with pytest.raises(SystemExit) as e:
        hl.parse_map(str(m))
    assert e.value.code == 2


def test_misses_follow_the_section_order(tmp_path, lib):
    m = tmp_path / "p.map"
    m.write_text(MAP)
    # f1, f2 and f3 lie 4 KiB apart in the map: one set, three lines.
    loop = [0x40000020, 0x40001020, 0x40002020]
    pcs = [0x40000000] + loop * 200
    p = hl.Program(str(m), pcs, ".text.f1", lib)
    as_linked = p.misses(p.names)
    packed = p.misses([".text.f1", ".text.f2", ".text.f3", ".text.pad1", ".text.pad2"])
    assert as_linked > 500  # LRU with three lines in two ways: every fetch misses
    assert packed == 0      # three sets, warm after the first pass
    with pytest.raises(SystemExit):
        hl.Program(str(m), pcs, ".text.never", lib)
