#!/usr/bin/env python3
"""Differential test against QEMU's leon3_generic machine.

  diff_run.py uart  --vp LEON3VP --qemu-run SCRIPT --elf ELF
      UART output of leon3vp and QEMU must be identical.
  diff_run.py trace --vp LEON3VP --qemu-run SCRIPT --trace-diff SCRIPT --elf ELF
      The retired-instruction streams (PC, nPC, PSR, WIM, Y and all visible
      registers before each instruction) must match instruction for
      instruction.

Both runs use a temporary directory; on failure the traces are kept next to
the build tree (LEON3VP_KEEP_DIR, default: current directory) for inspection.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def run(cmd, timeout):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["uart", "trace"])
    ap.add_argument("--vp", required=True)
    ap.add_argument("--qemu-run", required=True)
    ap.add_argument("--trace-diff")
    ap.add_argument("--elf", required=True)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--ignore-field", action="append", default=[])
    ap.add_argument("--start-symbol", default=None,
                    help="compare from the first execution of this ELF symbol on "
                         "(skips the reset-state prologue, where the two simulators "
                         "legitimately differ: QEMU's boot loader leaves registers set)")
    ap.add_argument("--nm", default="sparc64-linux-gnu-nm")
    a = ap.parse_args()

    td = tempfile.mkdtemp(prefix="l3vp-diff-")
    name = os.path.splitext(os.path.basename(a.elf))[0]
    try:
        vp_uart = os.path.join(td, "vp.uart")
        q_uart = os.path.join(td, "qemu.uart")
        vp_cmd = [a.vp, "--uart-out", vp_uart]
        q_cmd = [a.qemu_run, a.elf, "--uart", q_uart, "--timeout", str(int(a.timeout))]
        if a.mode == "trace":
            vp_cmd += ["--trace", os.path.join(td, "vp.trace")]
            q_cmd += ["--trace", os.path.join(td, "qemu.trace")]
        vp_cmd.append(a.elf)

        p = run(vp_cmd, a.timeout)
        if p.returncode < 0 or p.returncode >= 128:
            print(f"FAIL: leon3vp crashed (exit {p.returncode}): {p.stderr}")
            return 1
        q = run(q_cmd, a.timeout + 30)
        if q.returncode != 0:
            print(f"FAIL: qemu-run failed (exit {q.returncode}): {q.stderr}{q.stdout}")
            return 1

        vu = open(vp_uart, encoding="latin-1").read()
        qu = open(q_uart, encoding="latin-1").read()
        if vu != qu:
            print("FAIL: UART output differs between leon3vp and QEMU")
            print("--- QEMU ---\n" + qu + "--- leon3vp ---\n" + vu)
            keep(td, name)
            return 1
        if a.mode == "uart":
            print(f"PASS: {name}: identical UART output ({len(vu)} bytes, leon3vp exit {p.returncode})")
            return 0

        cmd = [a.trace_diff, os.path.join(td, "qemu.trace"), os.path.join(td, "vp.trace")]
        for f in a.ignore_field:
            cmd += ["--ignore-field", f]
        if a.start_symbol:
            addr = symbol_address(a.nm, a.elf, a.start_symbol)
            if addr is None:
                print(f"FAIL: symbol {a.start_symbol} not found in {a.elf}")
                return 1
            cmd += ["--start-pc", f"{addr:08x}"]
        d = run(cmd, a.timeout)
        sys.stdout.write(d.stdout)
        sys.stdout.write(d.stderr)
        n = sum(1 for _ in open(os.path.join(td, "vp.trace")))
        if d.returncode != 0:
            print(f"FAIL: {name}: instruction streams differ")
            keep(td, name)
            return 1
        if n < 50:
            print(f"FAIL: {name}: suspiciously short trace ({n} instructions)")
            return 1
        print(f"PASS: {name}: {n} instructions identical in leon3vp and QEMU")
        return 0
    finally:
        shutil.rmtree(td, ignore_errors=True)


def symbol_address(nm, elf, sym):
    out = subprocess.run([nm, elf], stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == sym:
            return int(f[0], 16)
    return None


def keep(td, name):
    dest = os.path.join(os.environ.get("LEON3VP_KEEP_DIR", os.getcwd()), f"diff-{name}")
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(td, dest)
    print(f"(artefacts kept in {dest})")


if __name__ == "__main__":
    sys.exit(main())
