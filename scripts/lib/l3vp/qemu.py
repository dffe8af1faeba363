"""How the project starts QEMU's leon3_generic board: one command line for
scripts/qemu-run and scripts/bench-speed (whose callgrind rows run QEMU
under valgrind, not through qemu-run)."""
import os

DEFAULT = "qemu-system-sparc"


def binary():
    """The QEMU binary: $QEMU_SYSTEM_SPARC, else qemu-system-sparc."""
    return os.environ.get("QEMU_SYSTEM_SPARC", DEFAULT)


def board_cmd(qemu, elf):
    """Boots `elf` on leon3_generic with 64 MiB, no display, no monitor and
    no reboot (the firmware's final error mode shuts QEMU down)."""
    return [qemu, "-M", "leon3_generic", "-m", "64M", "-nographic", "-monitor", "none", "-no-reboot",
            "-kernel", elf]
