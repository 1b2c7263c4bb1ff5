"""The dynamic-shapes oracle (issue 21): one corpus program, one call sequence, one mode -> what the compiler did.

A run compiles one program of corpus_dynamic.py (`build(lib)`: the same text on torch and on minitorch2) under
one of the MODES ("mark": dynamic=None and mark_dynamic(first tensor argument, case.mark_dim) before the first
call) and calls it with the case's size sequence, on fresh inputs from the same numpy seeds, through
a recording backend in one of two flavours:

  "counter"    CompileCounter (torch._dynamo.testing's / frontend.testing's), plus each graph's `gm.code` and
               its placeholders as `target: Tensor[s77, 4]` / `target: SymInt s77`;
  "aot_eager"  the same counter in front of aot_autograd with aot_eager's settings (no-op compilers, min-cut
               partitioner), plus each AOT forward graph's `gm.code` (SymInt primals, sym_size nodes).

It records, per call: the frame count after the call and the error raised (class: first line), or the output;
per compiled frame: graph code, placeholders and the shape guards; and the total op count. Dynamo is reset
(torch._dynamo.reset() / frontend.reset()) before and after every run.

Shape guards come from Dynamo's `guard_export_fn` hook: `torch._dynamo.optimize(backend, dynamic=...,
guard_export_fn=fn)` is what torch.compile(backend=..., dynamic=...) calls (torch/__init__.py passes its
arguments straight through), with the one extra hook. Dynamo calls the hook once per compiled frame with the
frame's GuardsSet; its SHAPE_ENV guard carries the ShapeEnv's produced guards as Python text in `code_list`,
e.g. ["(L['x'].size()[0] % 2) == 0", "3 <= L['x'].size()[0]"] (the same expressions the `guards` log prints as
LAMBDA_GUARD lines). On the minitorch2 side the harness passes the same hook when frontend.optimize accepts
`guard_export_fn`, and reads guards of kind SHAPE_ENV (`kind`/`create_fn_name()`, `code`/`code_list`); until it
does, ours count as "no shape guards" (right wherever torch has none, as under dynamic=False).
Guards are compared as sorted lists per frame (ShapeEnv's emission order is not asserted).

Torch's records are slow to make (~3 minutes: hundreds of torch.compile frames, AOT over symbolic sizes), so
they are kept in dynamic_expect/<case>.json (one file per case, graph texts stored once under `codes`), written
by `python -m tests.frontend.dynamic_oracle --record [--case NAME]`; the tests read them and run only
minitorch2 (and torch eagerly, for values). `python -m tests.frontend.dynamic_oracle` prints, per
mode, how many programs match torch on counts, graphs, guards and values, and every difference.
"""
import argparse
import contextlib
import difflib
import functools
import inspect
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import numpy as np
import torch
import torch._dynamo
import torch._dynamo.guards
import torch._dynamo.testing
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd
from torch._dynamo.backends.debugging import boxed_nop as torch_boxed_nop
from torch._functorch.partitioners import min_cut_rematerialization_partition as torch_min_cut

import autograd
import frontend
import frontend.testing
import minitorch2
import partition

from .corpus_dynamic import CASES, CASES_BY_NAME, MODES, Arg, build

EXPECT_DIR = Path(__file__).parent / "dynamic_expect"
BACKENDS = ("counter", "aot_eager")
DYNAMIC = {"none": None, "true": True, "false": False, "mark": None}


# ---- the two libraries ----------------------------------------------------------------------------------

@dataclass
class Side:
    """What a run needs from one library: its namespace of corpus programs and its Dynamo's pieces."""

    lib: object
    dynamo: object
    counter_cls: type
    aot_autograd: object
    boxed_nop: object
    partition_fn: object
    aot_options: dict

    @functools.cached_property
    def ns(self):
        return build(self.lib)

    @property
    def exports_guards(self):
        return self.lib is torch or "guard_export_fn" in inspect.signature(self.dynamo.optimize).parameters


TORCH = Side(torch, torch._dynamo, torch._dynamo.testing.CompileCounter, torch_aot_autograd, torch_boxed_nop,
             torch_min_cut, {"keep_inference_input_mutations": True})
OURS = Side(minitorch2, frontend, frontend.testing.CompileCounter, autograd.aot_autograd, autograd.boxed_nop,
            partition.min_cut_rematerialization_partition,
            {"keep_inference_input_mutations": True, "dynamic": True})  # ("dynamic": as our aot_eager backend)


# ---- inputs and outputs ----------------------------------------------------------------------------------

def make_args(lib, specs, call_index):
    """Fresh arguments for one call: tensors from numpy seeds (the same on both sides), other values as given."""
    args = []
    for j, spec in enumerate(specs):
        if not isinstance(spec, Arg):
            args.append(spec)
            continue
        rng = np.random.default_rng(100 * call_index + j)
        if spec.dtype == "int64":
            array = rng.integers(0, spec.high, spec.shape).astype(np.int64)
        else:
            array = rng.standard_normal(spec.shape).astype(spec.dtype)
        args.append(lib.tensor(array))
    return args


def to_np(value):
    if isinstance(value, (tuple, list)):
        return [to_np(v) for v in value]
    if hasattr(value, "detach"):
        return np.asarray(value.detach().numpy())
    return value


def describe_error(error):
    """`Class: its first two lines` (BackendCompilerFailed and ConstraintViolationError give the cause on line 2)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {' / '.join(lines[:2])[:400]}"


def error_type(described):
    return None if described is None else described.split(":", 1)[0]


def make_program(side, case):
    obj = side.ns[case.target]
    if isinstance(obj, type):
        side.lib.manual_seed(0)
        obj = obj()
    return obj


def _describe_value(value):
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return f"Tensor[{', '.join(str(d) for d in value.shape)}]"
    return f"{type(value).__name__} {value}"


def placeholders(gm):
    """`target: Tensor[s77, 4]` or `target: SymInt s77` for each graph input, from its example value."""
    out = []
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            value = node.meta.get("example_value", node.meta.get("val"))
            out.append(f"{node.target}: {_describe_value(value)}")
    return out


def shape_guard_codes(guards):
    """The SHAPE_ENV guards' Python expressions, from torch's GuardsSet or the frontend's guards."""
    codes = []
    for guard in guards:
        kind = guard.create_fn_name() if hasattr(guard, "create_fn_name") else getattr(guard, "kind", None)
        if kind == "SHAPE_ENV":
            codes.extend((guard.code_list or []) if hasattr(guard, "code_list") else [guard.code])
    return codes


# ---- one run -----------------------------------------------------------------------------------------------

class RecordingBackend:
    """Counts frames and ops, keeps each graph's code and placeholders; for aot_eager also each AOT forward."""

    def __init__(self, side, backend):
        self.side = side
        self.counter = side.counter_cls()
        self.graphs, self.guards, self.forward_codes = [], [], []
        self.aot = None
        if backend == "aot_eager":
            self.aot = side.aot_autograd(fw_compiler=self._forward, bw_compiler=side.boxed_nop,
                                         partition_fn=side.partition_fn, **side.aot_options)

    def __repr__(self):
        return f"RecordingBackend({'aot_eager' if self.aot else 'counter'})"

    def __call__(self, gm, example_inputs):
        self.graphs.append({"code": gm.code.strip(), "placeholders": placeholders(gm)})
        compiled = self.counter(gm, example_inputs)
        return self.aot(gm, example_inputs) if self.aot else compiled

    def _forward(self, gm, example_inputs):
        self.forward_codes.append(gm.code.strip())  # before boxed_nop, which switches torch's codegen to boxed
        return self.side.boxed_nop(gm, example_inputs)

    def export_guards(self, guards):
        self.guards.append(shape_guard_codes(guards))


def _no_guard_latency_profile(*args):
    return 0.0


@contextlib.contextmanager
def _fast_dynamo():
    """Dynamo times each new guard set once only to log the latency; skipping it changes nothing recorded."""
    with mock.patch.object(torch._dynamo.guards, "profile_guard_manager", _no_guard_latency_profile):
        yield


def _first_tensor(args):
    return next(a for a in args if hasattr(a, "shape"))


def run(side, case, mode, backend):
    """(record, outputs) for one case under one mode and backend on one library; outputs stay out of the record."""
    side.dynamo.reset()
    recorder = RecordingBackend(side, backend)
    options = {"dynamic": DYNAMIC[mode]}
    if side.exports_guards:
        options["guard_export_fn"] = recorder.export_guards
    record = {"frame_counts": [], "errors": [], "notes": []}
    outputs = []
    with _fast_dynamo():
        compiled = side.dynamo.optimize(recorder, **options)(make_program(side, case))
        for i, specs in enumerate(case.calls()):
            args = make_args(side.lib, specs, i)
            if mode == "mark" and i == 0:
                try:
                    side.dynamo.mark_dynamic(_first_tensor(args), case.mark_dim)
                except Exception as e:  # missing on minitorch2 until it lands: the run goes on unmarked
                    record["notes"].append(f"mark_dynamic: {describe_error(e)}")
            try:
                outputs.append(to_np(compiled(*args)))
                record["errors"].append(None)
            except Exception as e:
                outputs.append(None)
                record["errors"].append(describe_error(e))
            record["frame_counts"].append(recorder.counter.frame_count)
    side.dynamo.reset()
    record.update(op_count=recorder.counter.op_count, graphs=recorder.graphs,
                  guards=recorder.guards if side.exports_guards else None, aot_forward=recorder.forward_codes)
    return record, outputs


def eager_outputs(side, case):
    """The uncompiled program's outputs (None where a call raises)."""
    obj = make_program(side, case)
    outputs = []
    for i, specs in enumerate(case.calls()):
        try:
            outputs.append(to_np(obj(*make_args(side.lib, specs, i))))
        except Exception:
            outputs.append(None)
    return outputs


# ---- comparing -----------------------------------------------------------------------------------------------

def values_equal(a, b, rtol=1e-4, atol=1e-5):
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(values_equal(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return (isinstance(b, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype
                and bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True)))
    return type(a) is type(b) and a == b


def value_differences(torch_record, expected, record, outputs):
    """Calls whose compiled output differs from torch's eager one (calls where torch's compile raised are left to
    the behaviour comparison); a crash of ours where torch returned counts as a difference."""
    diffs = []
    for i, (theirs_error, want, error, got) in enumerate(zip(torch_record["errors"], expected, record["errors"],
                                                               outputs)):
        if theirs_error is not None:
            continue
        if error is not None:
            diffs.append(f"call {i}: raised {error}")
        elif not values_equal(want, got):
            diffs.append(f"call {i}: output differs from torch's")
    return diffs


def _sorted_guards(record):
    guards = record["guards"]
    if guards is None:  # no guard_export_fn on this side: it has no shape guards (one empty list per compile)
        guards = [[] for _ in range(record.get("graph_count", len(record.get("graphs", []))))]
    return [sorted(g) for g in guards]


def behaviour(counter_record, aot_record):
    """What the count/graph/guard comparison looks at, from one counter run and one aot_eager run."""
    return {
        "frame_counts": counter_record["frame_counts"],
        "op_count": counter_record["op_count"],
        "errors": [error_type(e) for e in counter_record["errors"]],
        "placeholders": [g["placeholders"] for g in counter_record["graphs"]],
        "graph_code": [g["code"] for g in counter_record["graphs"]],
        "guards": _sorted_guards(counter_record),
        "aot_frame_counts": aot_record["frame_counts"],
        "aot_graph_count": aot_record.get("graph_count", len(aot_record.get("graphs", []))),
        "aot_forward": aot_record["aot_forward"],
        "aot_guards": _sorted_guards(aot_record),  # AOT tracing adds its own (seed 002: 4 <= s77, not 3 <= s77)
    }


def behaviour_differences(theirs, ours):
    """One line per field that differs: frame counts, ops, errors, placeholders, graph code, guards, AOT."""
    diffs = []
    for key in theirs:
        if theirs[key] == ours[key]:
            continue
        if key in ("graph_code", "aot_forward"):
            diffs.append(f"{key}: {len(ours[key])} graphs vs torch's {len(theirs[key])}"
                         f"{_first_difference(theirs[key], ours[key])}")
        else:
            diffs.append(f"{key}: ours {ours[key]} vs torch {theirs[key]}")
    return diffs


def _first_difference(theirs, ours):
    """Where two lists of graph codes first differ: the graph's index and its first differing lines."""
    index = next((i for i, (x, y) in enumerate(zip(theirs, ours)) if x != y), None)
    if index is None:
        return ""
    lines = [line for line in difflib.unified_diff(theirs[index].splitlines(), ours[index].splitlines(), lineterm="",
                                                   n=0) if line[:1] in "+-" and line[:3] not in ("---", "+++")]
    torch_line = next((line[1:].strip() for line in lines if line.startswith("-")), "")
    our_line = next((line[1:].strip() for line in lines if line.startswith("+")), "")
    return f", graph {index} first differs: torch `{torch_line[:150]}`, ours `{our_line[:150]}`"


# ---- torch's records, kept on disk -----------------------------------------------------------------------------

def record_torch(case, modes=MODES):
    """{mode: {backend: record}} for one case on torch; each record notes whether compiled values equal eager ones.
    The aot_eager record keeps only what the comparison reads from it (its Dynamo graphs repeat the counter's)."""
    expected = eager_outputs(TORCH, case)
    records = {}
    for mode in modes:
        for backend in BACKENDS:
            record, outputs = run(TORCH, case, mode, backend)
            record["values_equal_eager"] = not value_differences(record, expected, record, outputs)
            if backend == "aot_eager":
                record["graph_count"] = len(record.pop("graphs"))
            records.setdefault(mode, {})[backend] = record
    return records


def _expect_path(case_name):
    return EXPECT_DIR / f"{case_name}.json"


def write_expectations(case, records):
    """One file per case; graph texts are stored once in `codes` and referred to by index (modes share many)."""
    codes = []

    def code_id(text):
        if text not in codes:
            codes.append(text)
        return codes.index(text)

    for by_backend in records.values():
        for record in by_backend.values():
            for graph in record.get("graphs", []):
                graph["code"] = code_id(graph["code"])
            record["aot_forward"] = [code_id(text) for text in record["aot_forward"]]
    document = {"torch_version": torch.__version__, "python": ".".join(map(str, sys.version_info[:2])),
                "case": case.name, "sizes": list(case.sizes), "mark_dim": case.mark_dim, "records": records,
                "codes": codes}
    EXPECT_DIR.mkdir(exist_ok=True)
    _expect_path(case.name).write_text(json.dumps(document, indent=1) + "\n")


@functools.cache
def load_expectations(case_name):
    """The case's torch document, with graph texts put back in place of their indices."""
    document = json.loads(_expect_path(case_name).read_text())
    codes = document["codes"]
    for by_backend in document["records"].values():
        for record in by_backend.values():
            for graph in record.get("graphs", []):
                graph["code"] = codes[graph["code"]]
            record["aot_forward"] = [codes[i] for i in record["aot_forward"]]
    return document


def torch_record(case_name, mode, backend):
    return load_expectations(case_name)["records"][mode][backend]


# ---- one case on minitorch2, against torch's records -----------------------------------------------------------

@functools.cache
def torch_eager(case_name):
    return eager_outputs(TORCH, CASES_BY_NAME[case_name])


@functools.cache
def compare(case_name, mode):
    """{"values": [...], "behaviour": [...]}: the value and behaviour differences of ours from torch."""
    case = CASES_BY_NAME[case_name]
    expected = torch_eager(case_name)
    result = {"values": [], "behaviour": [], "error": None}
    runs = {}
    for backend in BACKENDS:
        theirs = torch_record(case_name, mode, backend)
        try:
            runs[backend] = run(OURS, case, mode, backend)
        except Exception as e:  # a crash outside the calls (compile() itself): a failure of both comparisons
            OURS.dynamo.reset()
            result["error"] = f"{backend}: {describe_error(e)}"
            result["values"].append(result["error"])
            result["behaviour"].append(result["error"])
            return result
        record, outputs = runs[backend]
        result["values"] += [f"{backend} {d}" for d in value_differences(theirs, expected, record, outputs)]
    theirs = behaviour(torch_record(case_name, mode, "counter"), torch_record(case_name, mode, "aot_eager"))
    ours = behaviour(runs["counter"][0], runs["aot_eager"][0])
    result["behaviour"] = behaviour_differences(theirs, ours)
    result["notes"] = runs["counter"][0]["notes"]
    return result


def summary(modes=MODES, cases=CASES, short=False, out=sys.stdout):
    """Per mode: how many programs match torch on counts + graphs + guards + values, and on values alone; then
    every difference (short: one line per program naming the fields that differ)."""
    started = time.time()
    totals = {}
    for mode in modes:
        lines = []
        matched = values_matched = 0
        for case in cases:
            result = compare(case.name, mode)
            values_matched += not result["values"]
            if not result["values"] and not result["behaviour"]:
                matched += 1
                continue
            if short:
                fields = ["values"] * bool(result["values"]) + [d.split(":")[0] for d in result["behaviour"]]
                lines.append(f"  {case.name}: {', '.join(fields)}")
                continue
            lines.append(f"  {case.name}:")
            lines += [f"    value  {d}" for d in result["values"]]
            lines += [f"    differs {d}" for d in result["behaviour"]]
        totals[mode] = matched
        print(f"mode {mode}: {matched}/{len(cases)} programs match torch (counts, graphs, guards, values); "
              f"values match in {values_matched}/{len(cases)}", file=out)
        print("\n".join(lines), file=out)
    print(f"({time.time() - started:.0f} s)", file=out)
    return totals


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="re-record torch's runs into " + str(EXPECT_DIR))
    parser.add_argument("--mode", action="append", choices=MODES, help="only these modes (summary)")
    parser.add_argument("--case", action="append", help="only these cases")
    parser.add_argument("--short", action="store_true", help="one line per differing program")
    args = parser.parse_args(argv)
    cases = [CASES_BY_NAME[n] for n in args.case] if args.case else CASES
    if args.record:
        started = time.time()
        for case in cases:
            write_expectations(case, record_torch(case))
        print(f"recorded {len(cases)} cases x {len(MODES)} modes x {len(BACKENDS)} backends in "
              f"{time.time() - started:.0f} s -> {EXPECT_DIR}")
        return
    summary(tuple(args.mode or MODES), cases, args.short)


if __name__ == "__main__":
    main()
