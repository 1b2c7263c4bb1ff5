"""`python -m minitorch2 fuzz`: minitorch2/cli/fuzz.py, called through its own add_parser and main.

The runs go through the real runner (a pytest subprocess with the module as a
plugin): one on the eager layer's properties, one on a property written to
tmp_path that hypothesis falsifies, so the exit status and the minimal example
in the summary are checked both ways.
"""
import argparse
import subprocess
import sys
import textwrap

import pytest

from minitorch2.cli import fuzz, main


def parse(*argv):
    parser = argparse.ArgumentParser(prog="python -m minitorch2")
    fuzz.add_parser(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["fuzz", *argv])


def test_eager_layer_runs_the_requested_examples_and_passes(capfd):
    status = fuzz.main(parse("--layer", "eager", "--examples", "5", "--seed", "1"))
    out = capfd.readouterr().out
    assert status == 0, out
    assert "5 examples per property, seed 1" in out
    rows = [line for line in out.splitlines() if line.startswith("eager ")]
    properties = (fuzz.repository_root() / fuzz.LAYER_FILES["eager"]).read_text().count("\n@given(")
    assert len(rows) == properties and all("5 examples" in row and row.endswith("passed") for row in rows), rows
    assert f"{properties} properties passed, 0 failed" in out


def test_options_and_their_defaults():
    options = parse()
    assert (options.layer, options.examples, options.seed) == (None, 200, None)
    assert parse("--layer", "partition", "--examples", "7").examples == 7


@pytest.mark.parametrize("argv", [["--layer", "inductor"], ["--examples", "0"], ["--examples", "many"]])
def test_bad_options_are_argparse_errors(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        parse(*argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err


FALSIFIABLE = textwrap.dedent("""
    from hypothesis import given, strategies as st

    @given(st.integers(0, 1000))
    def test_every_integer_is_small(n):
        assert n < 10

    def test_not_a_property():
        raise AssertionError("plain tests are not run by fuzz")
""")


def test_a_failing_property_exits_1_and_shows_its_minimal_example(tmp_path, monkeypatch, capfd):
    prop = tmp_path / "test_falsifiable.py"
    prop.write_text(FALSIFIABLE)
    monkeypatch.setitem(fuzz.LAYER_FILES, "eager", str(prop))  # an absolute path replaces the layer's file
    status = fuzz.main(parse("--layer", "eager", "--examples", "50", "--seed", "3"))
    out = capfd.readouterr().out
    assert status == 1, out
    assert "0 properties passed, 1 failed" in out
    summary = out[out.index("==== minitorch2 fuzz"):]
    assert "---- eager: test_every_integer_is_small failed; minimal example:" in summary
    shrunk = "test_every_integer_is_small(\n      n=10,\n  )"  # shrunk to the boundary
    assert any(f"{heading}: {shrunk}" in summary for heading in fuzz.EXAMPLE_HEADINGS), summary
    assert "test_not_a_property" not in out


def test_missing_dependencies_exit_2_naming_them(monkeypatch, capsys):
    monkeypatch.setattr(fuzz, "REQUIRED_MODULES", ("torch", "no_such_module_for_fuzz"))
    assert fuzz.main(parse("--layer", "eager")) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("python -m minitorch2 fuzz: needs no_such_module_for_fuzz") and "\n" not in err


def test_tests_outside_a_source_checkout_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(fuzz, "repository_root", lambda: tmp_path)
    assert fuzz.main(parse("--layer", "fx")) == 2
    err = capsys.readouterr().err.strip()
    assert "tests/fx/test_fx_fuzz.py missing" in err and "pip install -e ." in err and "\n" not in err


def test_importing_the_command_imports_neither_torch_nor_hypothesis():
    code = ("import sys; import minitorch2.cli.fuzz; "
            "print(sorted(m for m in ('torch', 'hypothesis', 'pytest') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_command_line_runs_fuzz(capfd):
    assert main(["fuzz", "--layer", "fx", "--examples", "3", "--seed", "2"]) == 0
    assert "3 examples per property, seed 2" in capfd.readouterr().out

