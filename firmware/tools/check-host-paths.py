#!/usr/bin/python3
"""check-host-paths.py DIR PATH...

Fails (exit 1) when a loaded section of a firmware ELF in DIR holds one of
the host PATHs (the source tree, the build tree) as bytes: a program must
be the same bytes wherever the repository is cloned, or its code and data
move with the clone's path and its cycle counts change from machine to
machine (an assertion's __FILE__ is the usual way in; the firmware build
maps source paths with -ffile-prefix-map). Exit 2 on bad arguments.
"""
import pathlib
import sys

from elftools.common.exceptions import ELFError
from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile


def loaded_bytes(path):
    with open(path, "rb") as f:
        elf = ELFFile(f)
        for sec in elf.iter_sections():
            if sec["sh_flags"] & SH_FLAGS.SHF_ALLOC and sec["sh_type"] != "SHT_NOBITS":
                yield sec.name, sec.data()


def main(argv):
    if len(argv) < 3:
        print("usage: check-host-paths.py DIR PATH...", file=sys.stderr)
        return 2
    elfs = sorted(pathlib.Path(argv[1]).glob("*.elf"))
    if not elfs:
        print(f"check-host-paths: no ELF files in {argv[1]}", file=sys.stderr)
        return 2
    needles = [p.encode() for p in argv[2:] if p]
    bad = 0
    for elf in elfs:
        try:
            for name, data in loaded_bytes(elf):
                for n in needles:
                    if n in data:
                        print(f"check-host-paths: {elf.name}: section {name} holds '{n.decode()}'")
                        bad += 1
        except (OSError, ELFError) as e:
            print(f"check-host-paths: {elf}: {e}", file=sys.stderr)
            return 2
    print(f"check-host-paths: {len(elfs)} ELF files, {bad} host paths")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
