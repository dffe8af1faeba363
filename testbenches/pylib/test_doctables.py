"""scripts/lib/l3vp/experiment/doctables.py without leon3vp: table specs,
cells over one or several runs, markers, regeneration and its diff (the
end-to-end checks against fresh runs are the CTest tests doctables.*)."""
import os
import sys

import pandas as pd
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from l3vp.experiment import doctables, spec  # noqa: E402

TABLES = {
    "t": {"corner": "Config", "rows": [{"label": "a", "where": {"cfg": "a"}},
                                       {"label": "b", "where": {"cfg": "b"}}],
          "columns": {"axis": "size", "label": "{size} B"},
          "cell": "{(at(n=11).cyc - at(n=1).cyc) / 10:.1f}"},
    "one": {"rows": [{"label": "x", "vars": {"k": 3}}], "where": {"cfg": "a", "size": 64, "n": 1},
            "columns": [{"label": "cyc", "cell": "{cyc} {cyc * k} {region(7)['cycles']}"}],
            "align": "---:"},
}


def experiment(tables=TABLES):
    doc = {"experiment": "t", "firmware": {"program": "net_ping", "params": {"a": "{cfg}", "b": "{n}"}},
           "network": {"scenario": {"s": "{size}"}}, "grid": {"cfg": ["a", "b"], "size": [64, 1472]},
           "zip": [{"n": [1, 11], "m": [0, 0]}], "metrics": {"cyc": "stats.cycles"}, "tables": tables}
    doc["firmware"]["params"]["c"] = "{m}"
    return spec.Experiment("/tmp/t.yaml", doc)


def frame():
    rows, records = [], {}
    for cfg in ("a", "b"):
        for size in (64, 1472):
            for n in (1, 11):
                rid = f"{cfg}{size}{n}"
                cyc = 1000 + (n - 1) * (size + (7 if cfg == "b" else 0))
                rows.append({"run_id": rid, "cfg": cfg, "size": size, "n": n, "cyc": cyc})
                records[rid] = {"result": {"stats": {"regions": [{"id": 7, "cycles": cyc + 1}]}}}
    return pd.DataFrame(rows), records


def test_zip_lists_may_repeat_values_but_not_combinations():
    assert experiment().axes[-1][1] == [(1, 0), (11, 0)]
    with pytest.raises(spec.SpecError, match="combination of values twice"):
        spec.Experiment("/tmp/t.yaml", {"experiment": "t", "firmware": {"program": "p", "params": {
            "a": "{x}", "b": "{y}"}}, "zip": [{"x": [1, 1], "y": [2, 2]}], "metrics": {"c": "stats.c"}})


def test_difference_of_two_runs_per_cell():
    exp = experiment()
    df, rec = frame()
    t = doctables.table_spec(exp, exp.tables, "t")
    assert doctables.render_table(t, df, "ctx", rec) == [
        "| Config | 64 B | 1472 B |", "|---|---|---|",
        "| a | 64.0 | 1472.0 |", "| b | 71.0 | 1479.0 |"]


def test_single_run_names_vars_and_raw_regions():
    exp = experiment()
    df, rec = frame()
    t = doctables.table_spec(exp, exp.tables, "one")
    assert doctables.render_table(t, df, "ctx", rec) == ["|  | cyc |", "|---:|---:|", "| x | 1000 3000 1001 |"]


def test_cell_errors_are_one_line_naming_the_cell():
    exp = experiment({"bad": {"rows": [{"label": "r"}], "columns": [{"label": "c", "cell": "{cyc}"}]},
                      "nocell": {"rows": [{"label": "r"}], "columns": [{"label": "c"}]}})
    df, rec = frame()
    t = doctables.table_spec(exp, exp.tables, "bad")
    with pytest.raises(doctables.TableError, match=r"row 'r', column 'c': \{cyc\}: .*selects 8 runs"):
        doctables.render_table(t, df, "ctx", rec)
    with pytest.raises(doctables.TableError, match="no cell format"):
        doctables.table_spec(exp, exp.tables, "nocell")
    with pytest.raises(doctables.TableError, match="no table 'zz'"):
        doctables.table_spec(exp, exp.tables, "zz")


def test_markers_regenerate_and_diff(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text("intro\n<!-- table: e.yaml#t -->\n| Config | 64 B | 1472 B |\n|---|---|---|\n"
                   "| a | 64.0 | 1472.0 |\n| b | 71.0 | 1400.0 |\n<!-- /table -->\nafter\n")
    exp = experiment()
    df, rec = frame()
    out = doctables.regenerate([str(doc)], {"e.yaml": (exp, exp.tables, df), "_records": rec})
    old, new = out[str(doc)]
    assert old != new and new.startswith("intro\n") and new.endswith("after\n")
    assert "| b | 71.0 | 1479.0 |" in new and "1400.0" not in new
    d = doctables.diff(str(doc), old, new)
    assert "-| b | 71.0 | 1400.0 |" in d and "+| b | 71.0 | 1479.0 |" in d
    doc.write_text(new)   # regenerated: no difference any more
    old, new = doctables.regenerate([str(doc)], {"e.yaml": (exp, exp.tables, df), "_records": rec})[str(doc)]
    assert old == new


def test_unbalanced_markers(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text("<!-- table: e.yaml#t -->\n| a |\n")
    with pytest.raises(doctables.TableError, match="without '<!-- /table -->'"):
        doctables.find_markers(str(doc))
    doc.write_text("| a |\n<!-- /table -->\n")
    with pytest.raises(doctables.TableError, match="without a '<!-- table"):
        doctables.find_markers(str(doc))


def test_markers_in_code_blocks_are_examples(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text("```markdown\n<!-- table: x.yaml#t -->\n| a |\n<!-- /table -->\n```\n"
                   "<!-- table: e.yaml#t -->\n| b |\n<!-- /table -->\n")
    _, markers = doctables.find_markers(str(doc))
    assert markers == [(5, 7, "e.yaml", "t")]


def test_diff_of_raw_paths_and_cell_overrides():
    exp = experiment({"d": {"rows": [{"label": "a", "where": {"cfg": "a"}},
                                     {"label": "b", "where": {"cfg": "b"}, "cells": {"1472 B": "–"}}],
                            "columns": {"axis": "size", "label": "{size} B"},
                            "cell": "{diff('stats.regions.0x7.cycles', 'n', 11, 1, 10):.1f}"}})
    df, rec = frame()
    t = doctables.table_spec(exp, exp.tables, "d")
    assert doctables.render_table(t, df, "ctx", rec)[2:] == ["| a | 64.0 | 1472.0 |", "| b | 71.0 | – |"]


# -- value markers: one number in the prose --------------------------------------------
VALUES = {"big": {"value": "{max(r.cyc for r in runs(n=11)):.0f}", "where": {"cfg": "b"}},
          "one": "{cyc}", "per": {"value": "{(at(n=11).cyc - at(n=1).cyc) / k:.1f}",
                                  "where": {"cfg": "a", "size": 64}, "vars": {"k": 10}}}


def experiment_with_values(values=VALUES):
    exp = experiment()
    exp.values = values
    return exp


def test_value_markers_are_rewritten_in_place(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text("max <!-- value: e.yaml#big -->1<!-- /value --> cycles, "
                   "per <!-- value: e.yaml#per -->2<!-- /value --> µs\n"
                   "example `<!-- value: e.yaml#big -->9<!-- /value -->` stays\n"
                   "```\n<!-- value: e.yaml#per -->9<!-- /value -->\n```\n")
    exp = experiment_with_values()
    df, rec = frame()
    doctables.value_changes.clear()
    old, new = doctables.regenerate([str(doc)], {"e.yaml": (exp, exp.tables, df), "_records": rec})[str(doc)]
    assert new.split("\n")[0] == ("max <!-- value: e.yaml#big -->15790<!-- /value --> cycles, "
                                  "per <!-- value: e.yaml#per -->64.0<!-- /value --> µs")
    assert new.split("\n")[1:] == old.split("\n")[1:]   # code span and code block untouched
    assert sorted(c.split(": ", 1)[1] for c in doctables.value_changes) == [
        "value e.yaml#big: written '1', fresh run '15790'", "value e.yaml#per: written '2', fresh run '64.0'"]
    doctables.value_changes.clear()
    doc.write_text(new)
    old, new = doctables.regenerate([str(doc)], {"e.yaml": (exp, exp.tables, df), "_records": rec})[str(doc)]
    assert old == new and doctables.value_changes == []


def test_value_errors_are_one_line():
    exp = experiment_with_values()
    df, rec = frame()
    with pytest.raises(doctables.TableError, match=r"no value 'nope' under values:"):
        doctables.render_value(exp, "nope", df, {"_records": rec}, "ctx")
    with pytest.raises(doctables.TableError, match=r"\{cyc\}: .*selects 8 runs"):
        doctables.render_value(exp, "one", df, {"_records": rec}, "ctx")
    exp.values = {"bad": {"where": {"cfg": "a"}}}
    with pytest.raises(doctables.TableError, match="value"):
        doctables.render_value(exp, "bad", df, {"_records": rec}, "ctx")


def test_values_section_is_part_of_the_experiment_file():
    with pytest.raises(spec.SpecError, match="values"):
        spec.Experiment("/tmp/t.yaml", {"experiment": "t", "firmware": {"program": "p"},
                                        "metrics": {"c": "stats.c"}, "values": ["x"]})


def _cli_doc(tmp_path, marker):
    """A doc, an experiment file and a cached run of it: the CLI runs no leon3vp."""
    import json
    root = doctables.ROOT
    exp_path = tmp_path / "v.yaml"
    exp_path.write_text("experiment: v\nfirmware: {elf: /bin/true}\nmetrics: {cyc: stats.cycles}\n"
                        "values:\n  cyc: '{cyc:.1f}'\n")
    doc = tmp_path / "d.md"
    doc.write_text(f"text <!-- value: {os.path.relpath(exp_path, root)}#{marker} -->1.0<!-- /value --> end\n")
    return doc, exp_path, json


def test_cli_unknown_value_name_is_exit_2(tmp_path, capsys):
    doc, _exp, _ = _cli_doc(tmp_path, "nope")
    vp = tmp_path / "vp"
    vp.write_text("#!/bin/sh\nexit 0\n")
    vp.chmod(0o755)
    code = doctables.main([str(doc), "--check", "--vp", str(vp), "--out", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "no value 'nope' under values:" in err[0], err


def test_cli_check_fails_on_a_drifted_value_and_rewrite_fixes_it(tmp_path, capsys, monkeypatch):
    doc, exp_path, _ = _cli_doc(tmp_path, "big")
    ef = os.path.relpath(exp_path, doctables.ROOT)
    exp = experiment_with_values()
    df, rec = frame()
    monkeypatch.setattr(doctables, "run_experiments", lambda need, a, log: {ef: (exp, exp.tables, df),
                                                                             "_records": rec})
    doctables.value_changes.clear()
    args = [str(doc), "--vp", "/bin/true", "--out", str(tmp_path / "out"), "-q"]
    assert doctables.main(args + ["--check"]) == 1
    out = capsys.readouterr()
    assert f"d.md:1: value {ef}#big: written '1.0', fresh run '15790'" in out.out
    assert "-text <!--" in out.out and "1 file(s) differ" in out.err
    doctables.value_changes.clear()
    assert doctables.main(args) == 0 and "-->15790<!--" in doc.read_text()
    doctables.value_changes.clear()
    assert doctables.main(args + ["--check"]) == 0


def test_a_value_marker_split_over_lines_is_an_error():
    """A marker that does not close on its line would never be checked:
    it is refused, naming the doc and line."""
    ok = ["x <!-- value: e.yaml#a -->1<!-- /value --> and `<!-- value: e.yaml#b -->` in code"]
    assert [m.group(2) for _, m in doctables.find_values(ok, "d.md")] == ["a"]
    split = ["text", "costs <!-- value: e.yaml#tick -->310", "cycles<!-- /value --> of the CPU"]
    with pytest.raises(doctables.TableError, match=r"^d.md:2: a value marker must close"):
        doctables.find_values(split, "d.md")
