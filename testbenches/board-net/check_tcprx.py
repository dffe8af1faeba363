#!/usr/bin/env python3
"""board-net.tcprx: the speed targets' TCP at wire speed on the zero-copy, phases-off
build (net_tcpsink and net_tcpsend, built here on demand, like
board-net.speed). Send: 1 MB from net_tcpsend to the host, which verifies
it and ACKs Linux-style with delayed ACKs on, must reach SEND_FLOOR_MBPS
(the host's goodput). Receive: a clean bulk
transfer with verified data must reach the goodput floor below (the host's
net.results.experiments[0].goodput_bps; simulated time: deterministic), and
verified 256 KiB transfers under 2 % and 15 % loss, reordering and
duplication must arrive intact, the lossy and reordered ones with
out-of-order segments held and delivered (tcp_ooo_held/delivered > 0).
"Verified" twice over: the board compares every byte with the host's
pattern (flags=verify, the board's own cost), and the simulator's stream
checker compares every byte the sink consumed (flags=simcheck,
models/platform/stream_check.h: three stores per segment, no work per
byte on the board). The target's 80 Mbit/s is asserted with the stream
checker alone, so that the figure is the stack's and not the sink's own
check; the board-checked rate has its own floor.
usage: check_tcprx.py LEON3VP SOURCE_DIR BUILD_DIR"""
import json
import os
import subprocess
import sys

# Host goodput floor (Mbit/s) of tcprx_bulk with every byte checked by the
# simulator's stream checker (flags=simcheck): the target's 80 (this tree:
# 94.2, docs/firmware.md "Speed targets").
FLOOR_MBPS = 80.0
# The same with the board checking every byte itself (flags=verify, the
# sink's word-wise compare after the stack's checksum pass): what this tree
# reaches, raise it as the receive path gets faster.
BOARD_VERIFY_FLOOR_MBPS = 67.4  # 67.7 with the in-place echo reply; 67.4 with the layout searched with a UDP trace
# The same on the board with the GRETH_GBIT receive checksum offload
# (greth.csum_offload: no checksum pass on the board): 81.2 when the
# offload path was added, above the 80.
BOARD_VERIFY_OFFLOAD_FLOOR_MBPS = 81.2
# Host goodput floor (Mbit/s) of 1 MB from net_tcpsend: the target's 80 (this
# tree: 90.5 since the GRETH model streams frames through its TX FIFO).
SEND_FLOOR_MBPS = 80.0
HERE = os.path.dirname(os.path.abspath(__file__))


def build(src, out):
    """The zero-copy, phases-off net_tcpsink and net_tcpsend in `out` (the
    speed tables' variant; l3vp.experiment.firmware.build_in)."""
    sys.path.insert(0, os.path.join(src, "scripts", "lib"))
    from l3vp.experiment import firmware

    variant = {"NET_PHASES": "OFF", "NET_ZERO_COPY": "ON"}
    sink, _ = firmware.build_in(out, variant, ["net_tcpsink", "net_tcpsend"],
                                src=os.path.join(src, "firmware"))
    return sink


def send(vp, elf, out, nbytes=1000000):
    """net_tcpsend -> host (tcpsend.scenario.json): verified by the host."""
    res, _, e, _ = run(vp, elf, "tcpsend", out, [f"bytes={nbytes}"])
    assert res["failed"] == 0 and res["bytes"] == nbytes, f"send: {res}"
    assert e["accepted"] == 1 and e["bytes_received"] == nbytes and e["bad_bytes"] == 0, e
    c = e["conns"][0]
    # Delayed ACKs on: the host acknowledges every second full segment.
    assert 2 * c["acks_out"] <= c["data_segs_in"] + 20, f"send: the host did not delay its ACKs: {c}"
    return c["goodput_bps"] / 1e6, c


def run(vp, elf, name, out, params=(), vp_args=()):
    stats = f"{out}/{name}.stats.json"
    extra = [a for kv in params for a in ("--fw-param", kv)] + list(vp_args)
    p = subprocess.run([vp, "-q", "--scenario", f"{HERE}/{name}.scenario.json",
                        "--max-time", "200s", "--stats", stats, *extra, elf],
                       capture_output=True, text=True, timeout=300)
    lines = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    by = {l.get("type"): l for l in lines}
    assert "result" in by and "stack" in by, f"{name}: no result/stack line: {p.stdout[-500:]}"
    st = json.load(open(stats))
    return by["result"], by["stack"], st["net"]["results"]["experiments"][0], st["stream_check"]


def simchecked(name, sc, nbytes):
    """The stream checker saw exactly `nbytes` in one stream, all right."""
    assert sc["bytes"] == nbytes and sc["bad_bytes"] == 0 and sc["rejected"] == 0, f"{name}: {sc}"
    assert len(sc["streams"]) == 1 and sc["streams"][0]["bytes"] == nbytes, f"{name}: {sc}"


def main():
    vp, src, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    elf = build(src, f"{out}/fw-zc")
    mbps, c = send(vp, f"{out}/fw-zc/net_tcpsend.elf", out)
    assert mbps >= SEND_FLOOR_MBPS, f"send goodput {mbps:.1f} Mbit/s < {SEND_FLOOR_MBPS}"
    print(f"tcpsend 1 MB: {mbps:.1f} Mbit/s (floor {SEND_FLOOR_MBPS}), verified by the host, "
          f"{c['acks_out']} ACKs for {c['data_segs_in']} segments")
    res, st, host, sc = run(vp, elf, "tcprx_bulk", out, ["flags=simcheck"])
    assert res["ok"] == 1 and res["bytes"] == 1000000, f"bulk: {res}"
    simchecked("bulk", sc, 1000000)
    mbps = host["goodput_bps"] / 1e6
    assert mbps >= FLOOR_MBPS, f"bulk goodput {mbps:.1f} Mbit/s < {FLOOR_MBPS}"
    print(f"tcprx_bulk flags=simcheck: {mbps:.1f} Mbit/s (floor {FLOOR_MBPS}), "
          f"{sc['bytes']} bytes in {sc['pieces']} pieces checked by the simulator, "
          f"{st['tcp_tx']} ACKs for {st['tcp_rx']} segments")
    res, st, host, sc = run(vp, elf, "tcprx_bulk", out)
    assert res["ok"] == 1 and res["bad"] == 0 and sc["pieces"] == 0, f"bulk: {res}"
    mbps = host["goodput_bps"] / 1e6
    assert mbps >= BOARD_VERIFY_FLOOR_MBPS, \
        f"bulk goodput, board-verified {mbps:.1f} Mbit/s < {BOARD_VERIFY_FLOOR_MBPS}"
    print(f"tcprx_bulk flags=verify: {mbps:.1f} Mbit/s (floor {BOARD_VERIFY_FLOOR_MBPS}), "
          f"every byte checked by the board")
    # The same on a board whose MAC checks the TCP checksum (GRETH_GBIT
    # receive offload): the stack leaves every segment's sum to it.
    res, st, host, sc = run(vp, elf, "tcprx_bulk", out, vp_args=["--set", "greth.csum_offload=true"])
    assert res["ok"] == 1 and res["bad"] == 0 and res["bytes"] == 1000000, f"bulk, offload: {res}"
    assert st["tcp_chk_hw"] == st["tcp_rx"] and st["tcp_drop_chksum"] == 0, f"bulk, offload: {st}"
    mbps = host["goodput_bps"] / 1e6
    assert mbps >= BOARD_VERIFY_OFFLOAD_FLOOR_MBPS, \
        f"bulk goodput, board-verified, checksum offload {mbps:.1f} Mbit/s < {BOARD_VERIFY_OFFLOAD_FLOOR_MBPS}"
    print(f"tcprx_bulk flags=verify, checksum offload: {mbps:.1f} Mbit/s "
          f"(floor {BOARD_VERIFY_OFFLOAD_FLOOR_MBPS}), {st['tcp_chk_hw']} segments summed by the MAC")
    for name, must_hold in (("tcprx_loss2", True), ("tcprx_loss15", True),
                            ("tcprx_reorder", True), ("tcprx_dup", False)):
        res, st, host, sc = run(vp, elf, name, out, ["flags=verify+simcheck"])
        assert res["ok"] == 1 and res["bad"] == 0, f"{name}: {res}"
        assert host["completed"] == 1, f"{name}: host did not complete"
        simchecked(name, sc, res["bytes"])
        if must_hold:
            assert st["tcp_ooo_held"] > 0 and st["tcp_ooo_delivered"] > 0, f"{name}: {st}"
        print(f"{name}: ok, held {st['tcp_ooo_held']}, delivered {st['tcp_ooo_delivered']}, "
              f"dup {st['tcp_ooo_dup']}, not held {st['tcp_drop_ooo']}")
    # Deferred consumption: the sink keeps every segment in its DMA buffer
    # (tcp_recv_hold) and checks it only when 4 later ones are kept, under
    # 2 % loss (kept and out-of-order segments share the hold buffers).
    res, st, host, sc = run(vp, elf, "tcprx_loss2", out, ["flags=verify+hold+simcheck"])
    assert res["ok"] == 1 and res["bad"] == 0, f"kept: {res}"
    simchecked("kept", sc, res["bytes"])
    assert host["completed"] == 1, "kept: host did not complete"
    assert st["tcp_app_held"] > 0 and st["tcp_ooo_held"] > 0, f"kept: {st}"
    print(f"tcprx_loss2 flags=verify+hold+simcheck: ok, kept {st['tcp_app_held']}, "
          f"refused {st['tcp_app_hold_fail']}, out-of-order held {st['tcp_ooo_held']}")
    print("tcprx: all transfers verified")


if __name__ == "__main__":
    main()
