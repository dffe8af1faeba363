"""scripts/lib/l3vp/waveping.py (the events of one ping in a waveform,
docs/waveforms.md) on a hand-made waveform: a wake-only interrupt (no
PIL change) is a complete ping; a missing event is one line."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from l3vp import waveping  # noqa: E402

US = 1_000_000  # ps


def wave(**drop):
    w = {
        "board.link.to_board.wire": [(0, 0), (10 * US, 1), (19 * US, 0)],
        "board.link.to_board.rx": [(0, 0), (10 * US + 50_000, 1), (19 * US + 50_000, 0)],
        "board.link.to_board.len": [(0, 60), (10 * US, 106)],
        "board.greth.rx_dma": [(0, 0), (10 * US + 50_000, 1), (20 * US, 0)],
        "board.greth.rx_desc": [(0, 0), (19 * US + 200_000, 1)],
        "board.greth.irq": [(0, 0), (19 * US + 200_000, 1), (19 * US + 225_000, 0)],
        "board.irq.irl": [(0, 0), (19 * US + 200_000, 6), (19 * US + 325_000, 0)],
        "board.irq.ack": [(0, 0), (19 * US + 325_000, 6), (19 * US + 350_000, 0)],
        "board.cpu.trap": [(0, 0), (19 * US + 325_000, 0x16), (19 * US + 350_000, 0)],
        "board.cpu.pil": [(0, 0)],
        "board.cpu.power_down": [(0, 0), (1 * US, 1), (19 * US + 200_000, 0), (90 * US, 1)],
        "board.regions.current": [(0, "-"), (25 * US, "net.driver"), (30 * US, "net.proto"),
                                  (60 * US, "net.driver"), (70 * US, "-")],
        "board.greth.tx_dma": [(0, 0), (62 * US, 1), (75 * US, 0)],
        "board.greth.tx_desc": [(0, 0), (75 * US, 1)],
        "board.link.to_host.wire": [(0, 0), (64 * US, 1), (73 * US, 0)],
        "board.link.to_host.rx": [(0, 0), (64 * US + 50_000, 1), (73 * US + 50_000, 0)],
        "board.link.to_host.len": [(0, 60), (64 * US, 106)],
    }
    for k in drop:
        w[k.replace("__", ".")] = [(0, 0)]
    return w


def test_wake_only_ping_without_a_pil_change():
    ev = waveping.events(wave(), 64)
    t = ev["t"]
    assert (t["in_first"], t["irq"], t["ack"], t["phase_first"], t["out_first"], t["phase_last"], t["sleep"]) == (
        10 * US, 19 * US + 200_000, 19 * US + 325_000, 25 * US, 64 * US, 70 * US, 90 * US)
    assert ev["v"]["pil"] == 0 and ev["v"]["tt"] == 0x16 and ev["v"]["level"] == 6
    assert ev["phases"] == {"net.driver": 15 * US, "net.proto": 30 * US}
    rows = waveping.event_table(ev)
    assert rows[2] == "| the request's first bit leaves the host | `link.to_board.wire` rises, `len` = 106 | 10.000 | 0 |"
    assert any("PIL stays 0" in r and "| 19.325 | +9.325 |" in r for r in rows)
    times = [float(r.split(" | ")[-2]) for r in rows[2:]]
    assert times == sorted(times) and len(rows) == 2 + len(waveping.EVENTS)
    d = waveping.duration_table(ev, 250.5)
    assert "| board turnaround: last bit in (at the GRETH) to first bit out | 44.950 |" in d
    assert d[-1] == "| the host's round trip (its ping) | 250.500 |"


def test_a_missing_event_is_one_line():
    with pytest.raises(waveping.Missing, match=r"^the acknowledge after 19\.200 us is missing$"):
        waveping.events(wave(board__irq__ack=1), 64)
    w = wave()
    del w["board.greth.irq"]
    with pytest.raises(waveping.Missing, match="no signal board.greth.irq"):
        waveping.events(w, 64)


def test_pcap_frames_are_named():
    arp = bytes(12) + b"\x08\x06" + bytes(6) + b"\x00\x02" + bytes(38)
    icmp = bytes(12) + b"\x08\x00" + b"\x45" + bytes(8) + b"\x01" + bytes(10) + b"\x08" + bytes(71)
    assert waveping.pcap_table([(100_015_810, 60, arp), (1_100_143_750, 106, icmp)])[2:] == [
        "| 1 | 0.100015810 | 60 | ARP reply |", "| 2 | 1.100143750 | 106 | ICMP echo request |"]
