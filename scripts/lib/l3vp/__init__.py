"""l3vp: the Python side of leon3vp's scripts and test drivers.

One library for what every script needs (scripts/lib/README.md):

  l3vp.run      run leon3vp (command line, timeout, stdout/stderr, exit
                status, --stats/--net-results/--pcap/--uart-out files in a
                work directory) and get a Result back
  l3vp.results  the firmware's JSON result lines, --stats JSON
  l3vp.units    durations ("10s", "2.5 ms", "1e3us") and MAC addresses
  l3vp.elf      ELF symbols, sections and entry point (pyelftools)
  l3vp.qemu     the command line of QEMU's leon3_generic board (import l3vp.qemu)
  l3vp.energy   energy profiles and the analytical energy-versus-miss-rate
                model (import l3vp.energy)
  l3vp.cycles   cycle-count figures, goldens and the comparison table
                (from l3vp import cycles; docs/cycles.md)

Scripts import it with two lines relative to their own file, e.g. from
scripts/:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    import l3vp
"""
from .units import parse_duration_ps, duration_seconds, parse_mac, format_mac  # noqa: F401
from .results import json_lines, lines_by_type, first_line, load_stats, stats_get, stats_differences, regions  # noqa: F401
from .run import Result, RunError, RunTimeout, run, command  # noqa: F401
