"""`python -m minitorch2 run --report OUT.html`: one self-contained HTML page of a run.

CLI layer, used by run.py. The run it describes had every layer's log
artifacts switched on (`compare.LAYERS`), so the page holds the command, the
script's stdout, its stderr (less the artifact lines), then, per layer and artifact, each logged record (graphs, partitions, kernels,
guards) in a collapsed <details> section, and with --compare-torch the
comparison report and torch's own output. No scripts, no stylesheets or fonts
from elsewhere: one file that opens anywhere. Every piece of text goes through
html.escape.
"""
import html
import shlex

from .compare import LAYERS, format_report, log_records, without_artifacts

_STYLE = """body { font-family: sans-serif; margin: 1.5em; }
pre { background: #f4f4f4; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
summary { cursor: pointer; font-family: monospace; }
.same { color: #176317; } .differs { color: #a31515; }"""


def write_report(path, command, ours, theirs=None, comparison=None):
    """ours, theirs: compare.RunResult; comparison: a compare.Comparison or None."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(render(command, ours, theirs, comparison))


def render(command, ours, theirs=None, comparison=None):
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>minitorch2 run report</title>", f"<style>{_STYLE}</style></head><body>",
             "<h1>minitorch2 run report</h1>",
             f"<p>Command: <code>{_e(shlex.join(command))}</code><br>Exit status: {ours.returncode}</p>"]
    if comparison is not None:
        verdict = "same" if comparison.matches else "differs"
        parts += [f'<h2>Comparison with PyTorch: <span class="{verdict}">{verdict}</span></h2>',
                  _pre(format_report(comparison))]
    parts += ["<h2>stdout</h2>", _pre(ours.stdout),
              "<h2>stderr</h2>", _pre(without_artifacts(ours.stderr, keep=()))]
    parts += ["<h2>Graphs and other artifacts, per layer</h2>", *_artifact_sections(ours.stderr)]
    if theirs is not None:
        parts += ["<h2>The same script on PyTorch</h2>",
                  f"<p>Command: <code>{_e(_torch_command_text(theirs.command))}</code><br>"
                  f"Exit status: {theirs.returncode}</p>",
                  "<h3>stdout</h3>", _pre(theirs.stdout),
                  "<h3>Logged artifacts</h3>", *_artifact_sections(theirs.stderr)]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _artifact_sections(stderr):
    records = {}
    for record in log_records(stderr):
        records.setdefault(record.artifact, []).append("\n".join(record.lines))
    if not records:
        return ["<p>(nothing logged)</p>"]
    layer_of = {artifact: layer for layer, artifacts in LAYERS.items() for artifact in (*artifacts.ours,
                                                                                         *artifacts.torch)}
    ordered = sorted(records, key=lambda a: list(layer_of).index(a) if a in layer_of else len(layer_of))
    sections = []
    for artifact in ordered:
        texts = records[artifact]
        label = f"{layer_of.get(artifact, 'other')}: {artifact} ({len(texts)} record{'s' * (len(texts) != 1)})"
        sections.append(f"<details><summary>{_e(label)}</summary>{_pre(chr(10).join(texts))}</details>")
    return sections


def _torch_command_text(command):
    # the --backend bootstrap is a page of code: show it as what it does
    if len(command) > 2 and command[1] == "-c":
        return shlex.join([command[0], "-c", "<bootstrap: default backend " + command[3] + ">", *command[4:]])
    return shlex.join(command)


def _pre(text):
    return f"<pre>{_e(text)}</pre>" if text else "<p>(empty)</p>"


def _e(text):
    return html.escape(str(text))
