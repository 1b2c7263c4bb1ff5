"""`python -m minitorch2 explain`: every frame a script compiled, with its graphs, breaks and guards.

CLI layer, called by `cli.main`. The script runs as under `run` (run.py),
while an observer of the frontend's translations (`eval_frame._observers`)
records each new cache entry, with the user's call stack that led to it: the
script's own `torch.compile` calls, `with optimize()` blocks, and the resume
functions of graph breaks. Afterwards the entries are grouped by code object
and each frame prints as one `torch._dynamo.explain` output: graph and break
counts, break reasons (explanation, hint, user stack), the ops of each graph
in torch's spelling (`torch.sin`), guards, and the graphs as code. What
several cache entries of a frame share (a break reason, a guard, an op list)
prints once, labelled with the entries' compile ids (`1/0, 1/1`).

The report prints even when the script raises: its traceback first, as
Python prints it, then the report, and the exit status is 1.

The one idea to hold: nothing is re-traced to explain; the report reads the
cache entries the run itself made, so it describes exactly what ran.
"""
import os
import re
import sys
import traceback
import types

from frontend import eval_frame
from frontend.break_reasons import REASONS

from .. import _logging
from ..fx._spelling import qualified_name
from .run import run_script

_LIBRARY = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), package)
                 + os.sep for package in ("minitorch2", "frontend", "autograd", "partition", "backend"))


def main(options):
    return explain_script(options.script, options.args)


def explain_script(script, args):
    """Run script (as `run` does) and print, per compiled frame, graphs, breaks with reasons, and guards."""
    if not os.path.exists(script):
        print(f"python -m minitorch2 explain: can't open file '{script}'", file=sys.stderr)
        return 2
    compiled = []  # (CacheEntry, the user's stack when it was made), in the order the frames were compiled

    def record(entry):
        compiled.append((entry, user_stack()))

    eval_frame._observers.append(record)
    try:
        status = run_script(script, args)  # (the script's own error: its traceback printed, status 1)
    finally:
        eval_frame._observers.remove(record)
    sys.stdout.flush()
    sys.stderr.flush()
    print(explain_report(compiled, eval_frame.CACHE))
    return status


def user_stack():
    """The frames of the current stack that are the user's: not the library's, not runpy's."""
    return [frame for frame in traceback.extract_stack()[:-1]
            if not os.path.abspath(frame.filename).startswith(_LIBRARY) and not frame.filename.startswith("<")
            and os.path.basename(frame.filename) != "runpy.py"]


def explain_report(recorded, cache):
    """The text `explain` prints: one report per compiled frame (code object), in compile order."""
    code_of = {id(e): code for code, code_entries in cache.items() for e in code_entries}
    frames = {}
    for entry, stack in recorded:
        frames.setdefault(code_of.get(id(entry)), []).append((entry, stack))
    graph_total = sum(1 for entry, _ in recorded if entry.graph is not None)
    break_total = sum(1 for entry, _ in recorded if entry.break_reason)
    lines = [f"==== minitorch2 explain: {len(frames)} frame(s) compiled, {graph_total} graph(s), "
             f"{break_total} graph break(s) ===="]
    for code, frame_entries in frames.items():
        lines += ["", *frame_report(code, frame_entries, cache.get(code, []))]
    return "\n".join(lines)


def frame_report(code, frame_entries, cached):
    """One frame: its counts, then what its cache entries hold, each thing once with the entries that have it."""
    ids = [_entry_id(code, cached, entry) for entry, _ in frame_entries]
    graphs = [(entry_id, entry.graph) for entry_id, (entry, _) in zip(ids, frame_entries) if entry.graph is not None]
    broken = [(entry_id, entry, stack) for entry_id, (entry, stack) in zip(ids, frame_entries) if entry.break_reason]
    ops = [(entry_id, [_op_name(n.target) for n in gm.graph.nodes if n.op == "call_function"])
           for entry_id, gm in graphs]
    where = (f"{code.co_name} ({code.co_filename}:{code.co_firstlineno})" if code
             else "(not in the cache: run eagerly, or forgotten by reset())")
    count = len(frame_entries)
    lines = [f"--- frame {where}: {count} cache entr{'y' if count == 1 else 'ies'}",
             f"Graph Count: {len(graphs)}", f"Graph Break Count: {len(broken)}",
             f"Op Count: {sum(len(names) for _, names in ops)}", "Break Reasons:"]
    lines += _reasons("Break Reason", [b for b in broken if b[1].graph is not None])
    eager = [b for b in broken if b[1].graph is None]
    if eager:
        lines += ["Frames Run Eagerly:", *_reasons("Frame", eager)]
    lines.append("Ops per Graph:")
    for i, (entry_ids, names) in enumerate(_shared(ops), 1):
        lines += [f"  Ops {i} {_label(entry_ids)}:", *[f"    {name}" for name in names]]
    lines.append("Out Guards:")
    guards = [(entry_id, (g.kind, g.code, g.why)) for entry_id, (entry, _) in zip(ids, frame_entries)
              for g in entry.guard_fn.guard_list]
    for i, (entry_ids, (kind, guard_code, why)) in enumerate(_shared(guards), 1):
        lines += [f"  Guard {i} {_label(entry_ids)}:", f"    Create Function: {kind}",
                  f"    Code List: [{guard_code!r}]", f"    Why: {why}"]
    lines.append("Graphs:")
    for i, (entry_id, gm) in enumerate(graphs, 1):
        lines.append(f"  Graph {i} {_label([entry_id])}:")
        code_text = gm.print_readable(print_output=False, include_stride=True, include_device=True)
        lines += [f"    {line}" if line else "" for line in code_text.rstrip("\n").split("\n")]
    return lines


def _entry_id(code, cached, entry):
    """The compile id that made the entry: frame id / its place in the frame's cache."""
    index = next((i for i, e in enumerate(cached) if e is entry), None)
    return f"{_logging.frame_id(code)}/{index}" if code is not None and index is not None else "?"


def _shared(items):
    """[(entry ids, value)] with equal values merged, in first-seen order."""
    merged = {}
    for entry_id, value in items:
        key = repr(value)
        merged.setdefault(key, ([], value))[0].append(entry_id)
    return list(merged.values())


def _label(entry_ids):
    return f"(cache entr{'y' if len(entry_ids) == 1 else 'ies'} {', '.join(dict.fromkeys(entry_ids))})"


def _reasons(title, broken):
    """Each distinct break reason once: what, explanation, hint, and the user's stack down to the break."""
    merged = {}
    for entry_id, entry, stack in broken:
        merged.setdefault(entry.break_reason, ([], entry, stack))[0].append(entry_id)
    lines = []
    for i, (entry_ids, entry, stack) in enumerate(merged.values(), 1):
        reason = entry.break_reason
        code = reason.rsplit("[", 1)[-1].rstrip("]")
        site = re.search(r"\(instruction \w+ at (.+):(\d+)\)", reason)
        text = re.sub(r" \[\w+\]$", "", re.sub(r" \(instruction \w+ at .+:\d+\)", "", reason))
        what, hint = REASONS.get(code, REASONS["unsupported"])
        lines += [f"  {title} {i} {_label(entry_ids)}:", f"    Reason: {text}", f"      Explanation: {what}",
                  f"      Hint: {hint}", "    User Stack:"]
        frames = [(f.filename, f.lineno, f.name, f.line) for f in stack]
        if site:
            filename, lineno = site.group(1), int(site.group(2))
            frames.append((filename, lineno, _function_at(filename, lineno, entry), _source_line(filename, lineno)))
        for filename, lineno, name, line in frames:
            lines.append(f"      <FrameSummary file {filename}, line {lineno} in {name}>")
            lines += [f"        {line.strip()}"] if line else []
    return lines


def _function_at(filename, lineno, entry):
    """The name of the function holding the break's line (the innermost user frame: not on the stack yet)."""
    best = None
    for code in _codes_in(filename):
        lines = [line for _, _, line in code.co_lines() if line is not None]
        if lines and min(lines) <= lineno <= max(lines) and (best is None or code.co_firstlineno > best.co_firstlineno):
            best = code
    return best.co_name if best is not None else "?"


def _codes_in(filename):
    """Every code object compiled from the file (its functions, nested ones included)."""
    try:
        with open(filename) as f:
            top = compile(f.read(), filename, "exec")
    except (OSError, SyntaxError, ValueError):
        return []
    found, pending = [], [top]
    while pending:
        code = pending.pop()
        found.append(code)
        pending += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return found[1:]


def _source_line(filename, lineno):
    return traceback.FrameSummary(filename, lineno, "").line


def _op_name(target):
    """How torch names a graph's function: `torch.sin`, `torch.nn.functional.relu`; builtins as Python prints them."""
    if type(target).__name__ == "builtin_function_or_method":
        return str(target)  # <built-in function mul>, as torch's explain shows operator.mul
    return qualified_name(target)
