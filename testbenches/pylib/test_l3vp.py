"""pytest unit tests of scripts/lib/l3vp (registered in CTest as pylib.l3vp).

L3VP_FW_DIR (a firmware build) and L3VP_VP (leon3vp) come from CTest; the
tests that need them are skipped without.
"""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import l3vp  # noqa: E402
import l3vp.elf  # noqa: E402

FW_DIR = os.environ.get("L3VP_FW_DIR")
VP = os.environ.get("L3VP_VP")
needs_fw = pytest.mark.skipif(not FW_DIR, reason="L3VP_FW_DIR not set")
needs_vp = pytest.mark.skipif(not (FW_DIR and VP), reason="L3VP_VP/L3VP_FW_DIR not set")


# ---- durations -------------------------------------------------------------

@pytest.mark.parametrize("text, ps", [
    ("10s", 10 * 10**12),
    ("2.5 ms", 2_500_000_000),
    ("100ns", 100_000),
    ("1e3us", 10**9),
    ("500ps", 500),
    ("40us", 40_000_000),
    ("1.5ns", 1500),
    (".5us", 500_000),
    ("10.ms", 10 * 10**9),
    ("2.5E-3s", 2_500_000_000),
    ("1e-3ns", 1),
    ("0", 0),
    ("0s", 0),
    (123, 123),               # an int is picoseconds
    ("4611686018427387904ps", 1 << 62),
])
def test_duration_valid(text, ps):
    assert l3vp.parse_duration_ps(text) == ps


@pytest.mark.parametrize("text", [
    "", "10", "1.5", "0.0", "00", "s", "-1s", "+1s", "1.5ps", "1e-4ns", "10 S", "10sec", "10 s ", " 10s",
    "0x10s", "inf s", "nan", "1 0s", "10m", "1e30s", "4611686018427387905ps", "1,5ms",
    True, None, 1.5, -1, [1],
])
def test_duration_invalid(text):
    with pytest.raises(ValueError) as e:
        l3vp.parse_duration_ps(text)
    assert "duration" in str(e.value)


def test_duration_seconds():
    assert l3vp.duration_seconds("250ms") == 0.25
    assert l3vp.duration_seconds("0") == 0.0


# ---- MAC addresses -----------------------------------------------------------

@pytest.mark.parametrize("text, mac", [
    ("02:00:00:00:00:53", bytes([2, 0, 0, 0, 0, 0x53])),
    ("AA:bb:Cc:dD:ee:FF", bytes([0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff])),
])
def test_mac_valid(text, mac):
    assert l3vp.parse_mac(text) == mac
    assert l3vp.parse_mac(l3vp.format_mac(mac)) == mac


@pytest.mark.parametrize("text", [
    "", "02:00:00:00:00", "02:00:00:00:00:53:01", "02-00-00-00-00-53", "020:00:00:00:00:53",
    "02:00:00:00:00:5g", " 02:00:00:00:00:53", "02:00:00:00:00:53 ", "0x2:00:00:00:00:53",
    "02::00:00:00:53", "2:0:0:0:0:53", None, b"02:00:00:00:00:53",
])
def test_mac_invalid(text):
    with pytest.raises(ValueError):
        l3vp.parse_mac(text)


def test_format_mac():
    assert l3vp.format_mac(bytes([2, 0, 0, 0, 0, 0x53])) == "02:00:00:00:00:53"
    with pytest.raises(ValueError):
        l3vp.format_mac(b"\0" * 5)


# ---- JSON result lines and --stats -----------------------------------------------

UART = """leon3vp net_ping
{"app":"net_ping","type":"start","mode":"irq"}
 {"not":"a result line, indented"}
{"app":"net_ping","type":"result","echo_rx":20}
{"app":"net_ping","type":"conn","n":1}
{"app":"net_ping","type":"conn","n":2}
"""


def test_json_lines():
    lines = l3vp.json_lines(UART)
    assert [l["type"] for l in lines] == ["start", "result", "conn", "conn"]
    by = l3vp.lines_by_type(lines)
    assert [c["n"] for c in by["conn"]] == [1, 2]
    assert l3vp.first_line(lines, "result")["echo_rx"] == 20
    assert l3vp.first_line(lines, "conn")["n"] == 1
    assert l3vp.first_line(lines, "phases") is None


def test_json_lines_malformed():
    text = UART + '{"app":"net_ping","type":"stack","eth_rx":1\n'
    with pytest.raises(ValueError) as e:
        l3vp.json_lines(text)
    assert '"stack"' in str(e.value)
    assert len(l3vp.json_lines(text, strict=False)) == 4


def test_stats_helpers(tmp_path):
    p = tmp_path / "stats.json"
    p.write_text('{"cycles": 7, "net": {"greth": {"tx_frames": 3}},'
                 ' "regions": [{"id": 1, "cycles": 5}, {"id": 2, "cycles": 9}]}')
    s = l3vp.load_stats(str(p))
    assert l3vp.stats_get(s, "net.greth.tx_frames") == 3
    assert l3vp.stats_get(s, "net.greth.nothing") is None
    assert l3vp.stats_get(s, "cycles.x") is None
    assert l3vp.regions(s)[2]["cycles"] == 9
    assert l3vp.regions({}) == {}
    assert l3vp.stats_differences(s, s) == []
    other = {"cycles": 8, "net": {"greth": {}}, "regions": s["regions"]}
    assert l3vp.stats_differences(s, other) == ["/cycles = 7, then 8",
                                                "key /net/greth/tx_frames present in only one run"]


# ---- ELF (a real firmware ELF of the build) ----------------------------------------

def nm_symbols(path):
    out = subprocess.run(["sparc64-linux-gnu-nm", path], stdout=subprocess.PIPE, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TtDdBbRr":
            syms.setdefault(f[2], int(f[0], 16))
    return syms


@needs_fw
def test_elf_symbols_match_nm():
    path = os.path.join(FW_DIR, "net_ping.elf")
    with l3vp.elf.Elf(path) as e:
        assert e.is_be32
        assert e.entry == 0x40000000
        ours = e.symbols()
    ref = nm_symbols(path)
    common = [n for n in ("main", "netapp_run", "fw_params", "greth_send", "net_input_checked") if n in ref]
    assert len(common) == 5
    for n in common:
        assert ours[n][0] == ref[n], n


@needs_fw
def test_elf_fw_params():
    path = os.path.join(FW_DIR, "net_ping.elf")
    addr, size = l3vp.elf.symbol(path, "fw_params")
    assert size == 84                      # struct fw_params, version 4
    with l3vp.elf.Elf(path) as e:
        sec_addr, sec_off, sec_size = e.section(".params")
        assert sec_addr <= addr < sec_addr + sec_size
        data = e.read_symbol("fw_params")
        assert e.symbol("no_such_symbol") is None
        assert e.section(".no_such_section") is None
    assert data[:12] == bytes.fromhex("4e455450" "00000004" "00000054")  # "NETP", v4, 84 bytes
    with open(path, "rb") as f:
        f.seek(sec_off + (addr - sec_addr))
        assert f.read(size) == data
    assert l3vp.elf.entry(path) == 0x40000000


def test_elf_not_an_elf(tmp_path):
    p = tmp_path / "x.elf"
    p.write_bytes(b"\x7fELF but not really")
    with pytest.raises(ValueError) as e:
        l3vp.elf.entry(str(p))
    assert "not an ELF" in str(e.value)


# ---- running leon3vp -----------------------------------------------------------------

@needs_vp
def test_run_hello():
    r = l3vp.run(VP, os.path.join(FW_DIR, "hello.elf"), uart=True, stats=True, max_time="1s", mode="functional")
    assert r.returncode == 0 and not r.crashed
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden", "hello.out"),
              encoding="latin-1") as f:
        assert r.uart == f.read()
    assert r.stats["mode"] == "functional"
    assert r.stats["instructions"]["total"] > 0
    assert r.cmd[-1].endswith("hello.elf") and "--stats" in r.cmd and r.cmd[r.cmd.index("--mode") + 1] == "functional"
    with pytest.raises(ValueError):
        r.net_results            # not asked for


@needs_vp
def test_run_bad_input_and_errors(tmp_path):
    r = l3vp.run(VP, None, extra=["--max-time", "ten seconds", os.path.join(FW_DIR, "hello.elf")])
    assert r.returncode == 2 and "max-time" in r.last_stderr_line()
    with pytest.raises(l3vp.RunTimeout):
        l3vp.run(VP, os.path.join(FW_DIR, "bench_compute.elf"), max_time="1000s", timeout=0.2)
    with pytest.raises(l3vp.RunError):
        l3vp.run(str(tmp_path / "no-such-leon3vp"), "x.elf")
    assert l3vp.command("vp", "a.elf", quiet=True, stats="s.json", fw_params={"count": 3, "flags": "polled"},
                        extra=["--no-dmi"]) == \
        ["vp", "-q", "--stats", "s.json", "--fw-param", "count=3", "--fw-param", "flags=polled", "--no-dmi", "a.elf"]
