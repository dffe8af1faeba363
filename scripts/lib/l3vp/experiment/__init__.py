"""l3vp.experiment: declarative sweeps of leon3vp runs (scripts/experiment,
docs/experiments.md).

  spec      the experiment file (YAML): strict validation, the grid of runs
  firmware  compile-time variants built on demand (CMake + Ninja; ours or an
            out-of-tree project), prebuilt ELF checks, ELF hash
  execute   one run of leon3vp (what a Dask worker calls)
  metrics   named dotted paths into --stats, net results, UART lines; diffs
            of two runs; the --stats schema check
  plots     matplotlib figures (PNG + SVG)
  cli       the command line: run / list, cache, Dask, the table
"""
