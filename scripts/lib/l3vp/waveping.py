"""One ping in leon3vp's waveform: the events of its path through the board
and the durations between them (docs/waveforms.md "Reading one ping";
scripts/wave-screenshot takes the pictures, scripts/wave-events prints
the tables of the doc).

    ev = events(Wave("ping.vcd"), 64)   # {key: (t_ps, value)}, see EVENTS
    rows = event_table(ev)              # Markdown lines
"""
NAMES = ["board.link.to_board.wire", "board.link.to_board.rx", "board.link.to_board.len",
         "board.greth.rx_dma", "board.greth.rx_desc", "board.greth.irq", "board.irq.irl", "board.irq.ack",
         "board.cpu.trap", "board.cpu.pil", "board.cpu.power_down", "board.regions.current",
         "board.greth.tx_dma", "board.greth.tx_desc", "board.link.to_host.wire", "board.link.to_host.rx",
         "board.link.to_host.len"]

# (key, what happens, the signals that show it) in the doc's words; the
# signal text is a format over the event values (flen, level, tt, ...)
EVENTS = [
    ("in_first", "the request's first bit leaves the host", "`link.to_board.wire` rises, `len` = {flen}"),
    ("rx_dma_start", "it reaches the GRETH; the RX DMA starts", "`link.to_board.rx`, `greth.rx_dma` rise"),
    ("in_last", "its last bit leaves the host", "`link.to_board.wire` falls"),
    ("in_last_rx", "its last bit reaches the GRETH (the pcap's time stamp)", "`link.to_board.rx` falls"),
    ("irq", "descriptor written back, verdict, interrupt",
     "`greth.rx_desc` = {rx_desc}, `greth.irq` pulse"),
    ("irl", "the IRQMP raises the CPU's interrupt level", "`irq.irl` = {level}"),
    ("wake", "the CPU leaves power-down", "`cpu.power_down` falls"),
    ("ack", "the CPU takes the interrupt (wake-only: its handler returns at once, PIL stays {pil})",
     "`irq.ack` = {level}, `cpu.trap` = {tt:#04x}"),
    ("rx_dma_end", "the RX DMA has read the next descriptor and stops", "`greth.rx_dma` falls"),
    ("phase_first", "the main loop's network work begins", "`regions.current` = {first_phase}"),
    ("tx_dma_start", "the reply is queued: TX DMA starts", "`greth.tx_dma` rises"),
    ("out_first", "the reply's first bit on the wire", "`link.to_host.wire` rises, `len` = {flen}"),
    ("phase_last", "the last phase ends", "`regions.current` = `-`"),
    ("out_last", "the reply's last bit leaves the board", "`link.to_host.wire` falls"),
    ("out_last_rx", "the host has it (the pcap's time stamp)", "`link.to_host.rx` falls"),
    ("tx_dma_end", "TX descriptor written back, TX DMA stops", "`greth.tx_desc` = {tx_desc}, `greth.tx_dma` falls"),
    ("sleep", "the CPU idles again", "`cpu.power_down` rises"),
]


class Missing(Exception):
    """An event the ping should have is not in the waveform (one line)."""


def first(changes, after, pred=lambda v: True, what="an event"):
    for t, v in changes:
        if t >= after and pred(v):
            return t
    raise Missing(f"{what} after {after / 1e6:.3f} us is missing")


def value_at(changes, t):
    v = None
    for tc, vc in changes:
        if tc > t:
            break
        v = vc
    return v


def _rx_side(s, flen, t):
    t["in_first"] = first(s["board.link.to_board.len"], 0, lambda v: v == flen, "the request")
    t["in_last"] = first(s["board.link.to_board.wire"], t["in_first"] + 1, lambda v: v == 0, "the request's end")
    t["rx_dma_start"] = first(s["board.greth.rx_dma"], t["in_first"], lambda v: v == 1, "the RX DMA")
    t["in_last_rx"] = first(s["board.link.to_board.rx"], t["in_last"], lambda v: v == 0, "the request's arrival")
    t["irq"] = first(s["board.greth.irq"], t["in_first"], lambda v: v == 1, "the GRETH interrupt")
    t["irl"] = first(s["board.irq.irl"], t["irq"], lambda v: v != 0, "the IRQMP's level")
    t["wake"] = first(s["board.cpu.power_down"], t["irq"], lambda v: v == 0, "the wake-up")
    t["ack"] = first(s["board.irq.ack"], t["irl"], lambda v: v != 0, "the acknowledge")
    t["rx_dma_end"] = first(s["board.greth.rx_dma"], t["rx_dma_start"] + 1, lambda v: v == 0, "the RX DMA's end")


def _tx_side(s, flen, t):
    t["phase_first"] = first(s["board.regions.current"], t["ack"], lambda v: v != "-", "the first stack phase")
    t["tx_dma_start"] = first(s["board.greth.tx_dma"], t["phase_first"], lambda v: v == 1, "the TX DMA")
    t["out_first"] = first(s["board.link.to_host.len"], t["tx_dma_start"], lambda v: v == flen, "the reply")
    t["out_last"] = first(s["board.link.to_host.wire"], t["out_first"] + 1, lambda v: v == 0, "the reply's end")
    t["out_last_rx"] = first(s["board.link.to_host.rx"], t["out_last"], lambda v: v == 0, "the reply's arrival")
    t["tx_dma_end"] = first(s["board.greth.tx_dma"], t["tx_dma_start"] + 1, lambda v: v == 0, "the TX DMA's end")
    t["sleep"] = first(s["board.cpu.power_down"], t["tx_dma_start"], lambda v: v == 1, "the power-down")
    ends = [tc for tc, v in s["board.regions.current"] if v == "-" and t["phase_first"] < tc <= t["sleep"]]
    if not ends:
        raise Missing("the end of the last stack phase is missing")
    t["phase_last"] = max(ends)


def events(wave, size):
    """{"t": {key: t_ps}, "v": {values for the signal texts}, "phases":
    {region name: ps innermost}} of the first echo request of `size` data
    bytes in a Wave (l3vp.waveform)."""
    missing = [n for n in NAMES if n not in wave]
    if missing:
        raise Missing(f"no signal {', '.join(missing)} (run with the default --vcd-signals)")
    s = {n: wave[n] for n in NAMES}
    flen = 14 + 20 + 8 + size
    t = {}
    _rx_side(s, flen, t)
    _tx_side(s, flen, t)
    tt = value_at(s["board.cpu.trap"], t["ack"])
    v = {"flen": flen, "level": value_at(s["board.irq.ack"], t["ack"]), "tt": tt or 0,
         "pil": value_at(s["board.cpu.pil"], t["ack"]),
         "rx_desc": value_at(s["board.greth.rx_desc"], t["irq"]),
         "tx_desc": value_at(s["board.greth.tx_desc"], t["tx_dma_end"]),
         "first_phase": value_at(s["board.regions.current"], t["phase_first"])}
    phases, cur, since = {}, None, None
    for tc, name in s["board.regions.current"]:
        if tc < t["phase_first"] or tc > t["phase_last"]:
            continue
        if cur not in (None, "-"):
            phases[cur] = phases.get(cur, 0) + tc - since
        cur, since = name, tc
    return {"t": t, "v": v, "phases": phases}


def event_table(ev):
    """The doc's events table: one row per event in time order."""
    t, t0 = ev["t"], ev["t"]["in_first"]
    rows = sorted(EVENTS, key=lambda e: t[e[0]])   # stable: the listed order at equal times
    out = ["| Event | Signal | Time (µs) | From wire in |", "|---|---|---:|---:|"]
    for key, what, sig in rows:
        d = (t[key] - t0) / 1e6
        out.append(f"| {what.format(**ev['v'])} | {sig.format(**ev['v'])} | {t[key] / 1e6:.3f} | "
                   f"{'0' if d == 0 else f'{d:+.3f}'} |")
    return out


def duration_table(ev, rtt_us=None):
    """The durations the walkthrough talks about, in µs."""
    t = ev["t"]
    rows = [("the request on the wire (first to last bit)", t["in_last"] - t["in_first"]),
            ("last bit at the GRETH to its interrupt (descriptor write-back)", t["irq"] - t["in_last_rx"]),
            ("interrupt to the CPU's trap", t["ack"] - t["irl"]),
            ("trap to the first stack phase", t["phase_first"] - t["ack"]),
            ("TX DMA start to the reply's first bit", t["out_first"] - t["tx_dma_start"]),
            ("board turnaround: last bit in (at the GRETH) to first bit out", t["out_first"] - t["in_last_rx"]),
            ("wire in to wire out (first bits)", t["out_first"] - t["in_first"])]
    rows += [(f"innermost measured region `{name}` (summed)", ps) for name, ps in sorted(ev["phases"].items())]
    out = ["| Interval | µs |", "|---|---:|"]
    out += [f"| {what} | {ps / 1e6:.3f} |" for what, ps in rows]
    if rtt_us is not None:
        out.append(f"| the host's round trip (its ping) | {rtt_us:.3f} |")
    return out


def scenario_size(path):
    """The data size of the scenario's ping (ValueError when it has none)."""
    import json
    try:
        with open(path) as f:
            return next(x["size"] for x in json.load(f)["experiments"] if x["type"] == "ping")
    except (OSError, ValueError, KeyError, TypeError, StopIteration) as e:
        raise ValueError(f"{path}: no ping experiment ({type(e).__name__}: {e})") from None


def run_ping(vp, elf, scenario, tmp):
    """leon3vp with the scenario, --vcd, --pcap and --stats into tmp: the
    paths (vcd, pcap, stats) and the host's RTT of the ping in µs (None
    without a reply). RuntimeError (one line) when leon3vp fails."""
    import json
    import os
    import subprocess
    vcd, pcap, stats = (os.path.join(tmp, n) for n in ("ping.vcd", "ping.pcap", "stats.json"))
    p = subprocess.run([vp, "-q", "--scenario", scenario, "--vcd", vcd, "--pcap", pcap, "--stats", stats, elf],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"leon3vp exited {p.returncode}: {p.stderr.strip()}")
    with open(stats) as f:
        exps = ((json.load(f).get("net") or {}).get("results") or {}).get("experiments") or []
    rtt = next((e.get("rtt_avg_ps") for e in exps if e.get("type") == "ping" and e.get("rtt_avg_ps")), None)
    return vcd, pcap, stats, (rtt / 1e6 if rtt else None)


def _frame_kind(data):
    """ARP request/reply, ICMP echo request/reply or the EtherType."""
    et = int.from_bytes(data[12:14], "big") if len(data) >= 14 else None
    if et == 0x0806 and len(data) >= 22:
        return {1: "ARP request", 2: "ARP reply"}.get(int.from_bytes(data[20:22], "big"), "ARP")
    if et == 0x0800 and len(data) >= 35 and data[23] == 1:
        ihl = (data[14] & 15) * 4
        return {8: "ICMP echo request", 0: "ICMP echo reply"}.get(data[14 + ihl], "ICMP")
    return f"EtherType 0x{et:04x}" if et is not None else "runt"


def pcap_table(records):
    """The pcap's records [(t_ns, orig_len, data)] as the doc's table."""
    out = ["| Frame | Time stamp (s) | Length (B) | What |", "|---:|---:|---:|---|"]
    for i, (t_ns, _orig, data) in enumerate(records, 1):
        out.append(f"| {i} | {t_ns // 10**9}.{t_ns % 10**9:09d} | {len(data)} | {_frame_kind(data)} |")
    return out
