#!/usr/bin/env python3
"""GDB remote-debugging tests (sim/gdb/README.md): leon3vp --gdb 0 --gdb-wait
serves one gdb-multiarch batch session (or a raw protocol client); the test
checks gdb's output, leon3vp's exit status and, for the invariance cases,
that the run's --stats equal those of the same run without gdb.

  run_gdb_test.py LEON3VP GDB_TARGET_ELF CASE [--spin SPIN_ELF] [--bad BAD_ELF]

Every leon3vp and gdb process has a timeout; the port is chosen by leon3vp
(--gdb 0) and read from its stderr, so tests cannot collide."""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import l3vp  # noqa: E402

GDB = "gdb-multiarch"
TIMEOUT = 30
TMP = tempfile.mkdtemp(prefix="l3vp-gdb-")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


class Vp:
    """leon3vp with --gdb 0: started, port read from its stderr."""

    def __init__(self, vp, elf, extra=(), wait=True, stats=None):
        args = [vp, "--gdb", "0"] + (["--gdb-wait"] if wait else []) + list(extra)
        if stats:
            args += ["--stats", stats]
        args.append(elf)
        self.p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.p.stderr.readline()
        m = re.search(r"leon3vp: gdb: listening on 127\.0\.0\.1:(\d+)", line)
        if not m:
            self.p.kill()
            fail("no 'listening' line from leon3vp: %r" % line)
        self.port = int(m.group(1))
        self.err = [line]
        self.t = threading.Thread(target=lambda: self.err.append(self.p.stderr.read()))
        self.t.start()

    def finish(self):
        try:
            out = self.p.stdout.read()
            code = self.p.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.p.kill()
            fail("leon3vp did not end")
        self.t.join()
        return code, out, "".join(self.err)


def gdb_session(vp, elf, commands, extra=(), wait=True, stats=None):
    """Runs gdb-multiarch -batch with `commands` against a fresh leon3vp.
    Returns (gdb output, leon3vp exit code, leon3vp stdout, leon3vp stderr)."""
    v = Vp(vp, elf, extra, wait, stats)
    script = os.path.join(TMP, "session.gdb")
    with open(script, "w") as f:
        f.write("set architecture sparc\nset pagination off\nset confirm off\n")
        f.write("target remote 127.0.0.1:%d\n" % v.port)
        f.write(commands)
    try:
        g = subprocess.run([GDB, "-batch", "-nx", "-x", script, elf], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        v.p.kill()
        fail("gdb did not finish in %d s" % TIMEOUT)
    code, out, err = v.finish()
    return g.stdout, code, out, err


def expect(text, pattern, what):
    m = re.search(pattern, text, re.M)
    if not m:
        fail("%s: no match for %r in gdb output:\n%s" % (what, pattern, text))
    return m


def plain_run(vp, elf, extra=()):
    stats = os.path.join(TMP, "plain.json")
    p = subprocess.run([vp, "--stats", stats] + list(extra) + [elf], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    with open(stats) as f:
        return p.returncode, p.stdout, json.load(f)


def comparable(stats):
    """--stats minus what may depend on the host or on where the CPU thread
    synchronised (a debugger stop is one more sync point): host wall time
    and cpu_bus.syncs; and the transport counts that DMI changes (not
    simulated results, docs/stats-schema.md "Inv"): a watchpoint's pages are
    served without DMI, as --no-dmi serves every page."""
    s = json.loads(json.dumps(stats))
    s.pop("host", None)
    for k in ("syncs", "reads", "writes", "dmi_grants", "dmi_invalidations"):
        s.get("cpu_bus", {}).pop(k, None)
    for m in s.get("bus", {}).get("ahb", {}).get("masters", []):
        for k in ("reads", "writes", "bursts", "dmi_grants"):
            m.pop(k, None)
    return s


def diff(x, y):
    d = l3vp.stats_differences(x, y)
    if d:
        fail("stats without gdb, then with gdb: " + "; ".join(d[:10]))


# ---------------------------------------------------------------- the cases

def case_break_step(a):
    out, code, uart, _ = gdb_session(a.vp, a.elf, """
info registers pc npc
break leaf
continue
info registers o0 pc
stepi
info registers pc
step
bt
delete
continue
""")
    expect(out, r"^pc\s+0x40000000", "starts at the entry, halted")
    expect(out, r"Breakpoint 1, leaf \(n=0\)", "breakpoint at leaf")
    expect(out, r"^#1 .* in descend \(n=0\)", "caller frame")
    expect(out, r"^#4 .* in descend \(n=3\).*\n#5 .* in main \(\)", "bt reaches main")
    expect(out, r"exited with code 07", "run to exit")
    if code != 7 or "counter=3 a=6 b=78" not in uart:
        fail("leon3vp exit %d, UART %r" % (code, uart))
    print("PASS: break, stepi, step, bt, continue to exit")


def case_regs_mem(a):
    out, code, uart, _ = gdb_session(a.vp, a.elf, """
break leaf
continue
set $o0 = 0x1234
p/x $o0
info registers o0
p/x $y
set $y = 0xcafe
p/x $y
p/x $f3
x/4wx &status_code
set {int}&status_code = 42
x/1wx &status_code
x/2bx &counter
delete
continue
""")
    expect(out, r"^\$1 = 0x1234", "set $o0")
    expect(out, r"^o0\s+0x1234", "info registers o0")
    expect(out, r"^\$3 = 0xcafe", "set $y")
    expect(out, r"^\$4 = 0x0", "no FPU: f3 reads 0")
    expect(out, r"<status_code>:\s+0x00000007", "x/4wx reads memory")
    expect(out, r"<status_code>:\s+0x0000002a", "set {int} writes memory")
    expect(out, r"exited with code 052", "exit code changed through memory")
    # $o0 of leaf(0) is its argument n = 0 -> r = 0x1234*3: b changes, a too.
    if code != 42 or "counter=3" not in uart or "a=6 " in uart:
        fail("leon3vp exit %d, UART %r (expected 42 and a changed result)" % (code, uart))
    print("PASS: registers and memory read and written")


def case_watch(a):
    out, code, _, _ = gdb_session(a.vp, a.elf, """
watch counter
continue
continue
delete
awatch depth_seen
continue
delete
rwatch status_code
continue
continue
""")
    expect(out, r"Old value = 0\nNew value = 1\n", "first write")
    expect(out, r"Old value = 1\nNew value = 3\n", "second write")
    expect(out, r"in bump \(", "reported in bump")
    expect(out, r"Hardware access \(read/write\) watchpoint 2: depth_seen\n\nValue = 0\n(?:.* in )?leaf \(",
           "access watchpoint: leaf writes depth_seen")
    expect(out, r"Hardware read watchpoint 3: status_code\n\nValue = 7\n(?:.* in )?main \(", "read watchpoint")
    expect(out, r"exited with code 07", "run to exit")
    if code != 7:
        fail("exit %d" % code)
    print("PASS: write, read and access watchpoints")


def case_bt(a):
    out, code, _, _ = gdb_session(a.vp, a.elf, """
break leaf
continue
info registers wim
bt
continue
info registers wim
bt
delete
continue
""")
    frames = re.findall(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\w+) \((?:n=(\d+))?\)", out, re.M)
    # shallow: leaf + descend(0..3) + main; deep: leaf + descend(0..12) + main
    want_shallow = [("leaf", "0")] + [("descend", str(i)) for i in range(4)] + [("main", "")]
    want_deep = [("leaf", "0")] + [("descend", str(i)) for i in range(13)] + [("main", "")]
    got = [(f, n) for _, f, n in frames]
    if got != want_shallow + want_deep:
        fail("backtraces %r, expected %r then %r\n%s" % (got, want_shallow, want_deep, out))
    if code != 7:
        fail("exit %d" % code)
    print("PASS: bt through %d frames in windows and %d with overflowed windows" %
          (len(want_shallow), len(want_deep)))


def case_monitor(a):
    out, code, _, _ = gdb_session(a.vp, a.elf, """
break leaf
continue
monitor cycles
x/16wx $sp
info registers
monitor cycles
monitor time
monitor stats
monitor help
monitor bogus
delete
continue
""")
    c = re.findall(r"^(\d+)$", out, re.M)
    if len(c) != 2 or c[0] != c[1] or int(c[0]) == 0:
        fail("monitor cycles: %r (must be equal and non-zero: stopped time does not advance)" % c)
    t = expect(out, r"^\d+(?:\.\d+)? [munp]?s \((\d+) ps\)", "monitor time")
    if int(t.group(1)) != int(c[0]) * 25000:
        fail("monitor time %s ps != %s cycles x 25 ns" % (t.group(1), c[0]))
    expect(out, r"^instructions\s+\d+\n^cycles\s+%s" % c[0], "monitor stats")
    expect(out, r"^simulated\s+", "monitor stats: simulated time")
    expect(out, r"leon3vp monitor commands", "monitor help")
    expect(out, r"unknown monitor command 'bogus'", "unknown command")
    if code != 7:
        fail("exit %d" % code)
    print("PASS: monitor cycles/time/stats/help, %s cycles" % c[0])


def case_invariance(a):
    """A run with breakpoints, watchpoints, single steps, register/memory
    reads and stops ends with exactly the statistics of the plain run."""
    for extra in ([], ["--mode", "functional"], ["--no-dmi"]):  # preset: timed, DMI
        stats = os.path.join(TMP, "gdb.json")
        out, code, uart, _ = gdb_session(a.vp, a.elf, """
break bump
continue
stepi
stepi
stepi
next
info registers
x/32wx $sp
delete
watch counter
continue
delete
hbreak leaf
continue
continue
bt
delete
break descend if n == 7
continue
bt
delete
stepi 20
continue
""", extra=extra, stats=stats)
        expect(out, r"exited with code 07", "run to exit")
        expect(out, r"Old value = 1\nNew value = 3", "watchpoint hit")
        expect(out, r"descend \(n=7\)", "conditional breakpoint")
        with open(stats) as f:
            s_gdb = json.load(f)
        pcode, puart, s_plain = plain_run(a.vp, a.elf, extra)
        if code != pcode or uart != puart:
            fail("%s: exit/UART differ with gdb: %d %r vs %d %r" % (extra, code, uart, pcode, puart))
        diff(comparable(s_plain), comparable(s_gdb))
        print("  %s: %d instructions, %d cycles identical" %
              (" ".join(extra) or "default", s_plain["instructions"]["total"], s_plain["cycles"]))
    print("PASS: statistics identical with and without gdb")


def case_trace(a):
    """stepi from the entry visits exactly the PCs of leon3vp's --trace."""
    n = 300
    trace = os.path.join(TMP, "trace.txt")
    subprocess.run([a.vp, "--trace", trace, a.elf], stdout=subprocess.DEVNULL, timeout=TIMEOUT)
    with open(trace) as f:
        want = [int(line.split()[0], 16) for _, line in zip(range(n), f)]
    cmds = "".join("stepi\nprint/x $pc\n" for _ in range(n - 1)) + "kill\n"
    out, code, _, _ = gdb_session(a.vp, a.elf, "print/x $pc\n" + cmds)
    got = [int(x, 16) for x in re.findall(r"^\$\d+ = (0x[0-9a-f]+)", out, re.M)]
    if got != want:
        bad = next(i for i in range(min(len(got), len(want))) if got[i] != want[i]) \
            if got[:len(want)] != want[:len(got)] else min(len(got), len(want))
        fail("stepi PCs differ from --trace at step %d: gdb %s, trace %s" %
             (bad, [hex(x) for x in got[bad:bad + 3]], [hex(x) for x in want[bad:bad + 3]]))
    if code != 137:
        fail("kill: exit %d, expected 137" % code)
    print("PASS: %d stepped PCs equal the trace; kill ends the run (137)" % n)


def case_error_mode(a):
    out, code, _, err = gdb_session(a.vp, a.bad, """
continue
info registers pc
continue
""")
    expect(out, r"Program received signal SIGSEGV", "error mode: stop with SIGSEGV")
    expect(out, r"Program terminated with signal SIGSEGV", "then the run ends")
    if code != 3 or "error mode: trap tt=0x09" not in err:
        fail("exit %d, stderr %r" % (code, err))
    print("PASS: error mode reported as SIGSEGV, then the end")


def case_detach(a):
    stats = os.path.join(TMP, "detach.json")
    out, code, uart, _ = gdb_session(a.vp, a.elf, """
break bump
continue
detach
""", stats=stats)
    expect(out, r"Breakpoint 1, bump", "breakpoint")
    expect(out, r"\[Inferior 1 \(Remote target\) detached\]", "detach")
    pcode, puart, s_plain = plain_run(a.vp, a.elf)
    with open(stats) as f:
        s_gdb = json.load(f)
    if code != pcode or uart != puart:
        fail("detach: exit %d %r, plain %d %r" % (code, uart, pcode, puart))
    diff(comparable(s_plain), comparable(s_gdb))
    print("PASS: detach resumes without the debugger (same results)")


def case_attach_interrupt(a):
    """Without --gdb-wait the program runs; gdb attaches (stop), then a
    Ctrl-C while it runs stops it with SIGINT (gdb: continue &, interrupt)."""
    out, code, _, _ = gdb_session(a.vp, a.spin, """
info registers pc
python
import threading, time
# Ctrl-C from gdb while the target runs: "interrupt" from gdb's own event
# loop (where it waits during "continue"), as typing Ctrl-C would.
def later():
    time.sleep(0.5)
    gdb.post_event(lambda: gdb.execute("interrupt"))
threading.Thread(target=later).start()
end
continue
info registers pc
kill
""", wait=False, extra=["--max-time", "1000s"])
    expect(out, r"^pc\s+0x4000000[04]", "attached while spinning")
    expect(out, r"received signal SIGINT", "interrupt")
    if code != 137:
        fail("exit %d (expected 137 after kill)" % code)
    print("PASS: attach to a running program, Ctrl-C stops it with SIGINT")


def case_protocol(a):
    """Protocol level (no gdb): checksums and acks, qSupported, g/p, m/X, Z0,
    vCont, Ctrl-C (0x03) while running -> T02, qRcmd, k."""
    v = Vp(a.vp, a.spin, ["--max-time", "1000s"])
    s = socket.create_connection(("127.0.0.1", v.port), timeout=TIMEOUT)
    buf = b""

    def packet(payload):
        body = payload.encode("latin-1")
        s.sendall(b"$" + body + b"#%02x" % (sum(body) & 0xFF))
        return reply()

    def reply():
        nonlocal buf
        while True:
            m = re.search(rb"\$([^#]*)#([0-9a-f]{2})", buf)
            if m:
                buf = buf[m.end():]
                if sum(m.group(1)) & 0xFF != int(m.group(2), 16):
                    fail("bad checksum from the stub: %r" % m.group(0))
                return m.group(1).decode("latin-1")
            chunk = s.recv(4096)
            if not chunk:
                fail("connection closed")
            buf += chunk

    # A corrupted packet is refused with '-'.
    s.sendall(b"$g#00")
    r = s.recv(1)
    if r != b"-":
        fail("bad checksum: got %r, expected '-'" % r)
    sup = packet("qSupported:multiprocess+;swbreak+")
    if "PacketSize=" not in sup:
        fail("qSupported: %r" % sup)
    if packet("?") != "S05":
        fail("? after --gdb-wait")
    g = packet("g")
    if len(g) != 72 * 8 or g[68 * 8:69 * 8] != "40000000" or g[69 * 8:70 * 8] != "40000004":
        fail("g: %d chars, pc %s" % (len(g), g[68 * 8:69 * 8]))
    if packet("p44") != "40000000":  # 0x44 = 68 = pc
        fail("p44")
    if packet("m40000000,8") != "1080000001000000":  # ba _start; nop
        fail("m: %r" % packet("m40000000,8"))
    # Binary write with an escaped byte ('}' 0x7d -> "}]"), then read back.
    x = packet("X40001000,4:\x01}]#\x02".replace("#", "}\x03"))
    if x != "OK" or packet("m40001000,4") != "017d2302":
        fail("X: %r, read back %r" % (x, packet("m40001000,4")))
    # A read across the top of the address space stops there (no wrap-around): the
    # AHB plug&play area's last word, not 4 more bytes wrapped from 0.
    top = packet("mfffffffc,8")
    if len(top) != 8 or top != packet("mfffffffc,4"):
        fail("m across 0xffffffff: %r (expected the 4 bytes below the top)" % top)
    if packet("Mfffffffe,4:00000000") != "E01":
        fail("M across 0xffffffff accepted")
    if packet("Z0,40000000,4") != "OK" or packet("z0,40000000,4") != "OK":
        fail("Z0/z0")
    o = packet("qRcmd," + b"cycles".hex())  # console output, then OK
    if not o.startswith("O") or bytes.fromhex(o[1:]).decode() != "0\n" or reply() != "OK":
        fail("qRcmd cycles: %r (no instruction has run: 0 cycles)" % o)
    # Run, then Ctrl-C.
    s.sendall(b"$vCont;c#a8")
    s.settimeout(0.3)
    try:
        early = s.recv(4096)
        if early.strip(b"+"):
            fail("reply before the interrupt: %r" % early)
    except socket.timeout:
        pass
    # Packets sent while the target runs are kept up to a bound (a
    # flood once grew the stub by 116 MB and it stopped answering): 2000 "?"
    # packets, then Ctrl-C; the stub answers at most its bound of them.
    s.sendall(b"$?#3f" * 2000)
    s.settimeout(TIMEOUT)
    s.sendall(b"\x03")
    replies = []
    while True:
        st = reply()
        if st.startswith("T02"):
            break
        replies.append(st)
    s.sendall(b"$p44#d8")
    while True:  # the queued '?' are answered after the stop, then our p44
        r = reply()
        if re.fullmatch(r"[0-9a-f]{8}", r):
            break
        if not r.startswith(("T02", "S05")):
            fail("after the flood: %r" % r)
        replies.append(r)
    if len(replies) > 64:
        fail("the stub answered %d of 2000 packets sent while running (bounded queue expected)" % len(replies))
    pc = int(packet("p44"), 16)
    if pc not in (0x40000000, 0x40000004):
        fail("stopped at pc %#x" % pc)
    s.sendall(b"$k#6b")
    s.close()
    code, _, _ = v.finish()
    if code != 137:
        fail("k: exit %d" % code)
    print("PASS: protocol: acks, qSupported, ?, g, p, m, X (escaped), m/M across the top, Z0/z0, vCont, "
          "Ctrl-C -> T02, k")


def case_bad_input(a):
    """Bad --gdb values: one stderr line, exit 2, no hang."""
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    for args, why in ((["--gdb", str(port)], "Address already in use"),
                      (["--gdb", "70000"], "out of range"),
                      (["--gdb", "x1"], "--gdb"),
                      (["--gdb-wait"], "--gdb-wait requires --gdb")):
        p = subprocess.run([a.vp] + args + [a.elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=TIMEOUT)
        lines = p.stderr.splitlines()
        if p.returncode != 2 or len(lines) != 1 or why not in lines[0] or "leon3vp: error: " not in lines[0]:
            fail("%s: exit %d, stderr %r" % (args, p.returncode, p.stderr))
    busy.close()
    print("PASS: bad --gdb input gives one line and exit 2")


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vp")
    ap.add_argument("elf")
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--spin")
    ap.add_argument("--bad")
    a = ap.parse_args()
    CASES[a.case](a)


if __name__ == "__main__":
    main()
