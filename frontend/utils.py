"""`counters` (plays torch._dynamo.utils.counters): tallies of what the compiles so far have done, for scripts to read.

Observability, beside explain.py: an observer of every CacheEntry eval_frame.py makes (as explain's), recording
under the keys Dynamo's are read by:

    counters["frames"]["total"], ["ok"]           frames translated (resume functions too); those not eager
    counters["stats"]["unique_graphs"]            graphs handed to a backend
    counters["stats"]["calls_captured"]           the calls in those graphs (Dynamo's op count)
    counters["graph_break"][reason]               breaks a frame was split at
    counters["unimplemented"][reason]             breaks that made a frame run eagerly

The reasons are ours, not Dynamo's words. As torch's, reset() keeps them: `counters.clear()` starts afresh. A frame
whose translation raises (fullgraph=True, a backend that fails) is in no tally.
"""
import collections

from . import eval_frame
from .break_reasons import jumps_on_a_tensor, untallied

counters = collections.defaultdict(collections.Counter)


def _tally(entry):
    ran_eagerly = entry.break_reason is not None and entry.transformed_code is None  # (Dynamo's convert raised)
    counters["frames"]["total"] += 1
    if not ran_eagerly:
        counters["frames"]["ok"] += 1
    if entry.graph is not None:
        counters["stats"]["calls_captured"] += sum(node.op.startswith("call_") for node in entry.graph.graph.nodes)
        counters["stats"]["unique_graphs"] += 1  # (after calls_captured: a script printing the dict sees Dynamo's order)
    if entry.break_reason is not None and (ran_eagerly or not (jumps_on_a_tensor(entry.break_reason) or untallied(
            entry.break_reason))):
        kind = "unimplemented" if ran_eagerly else "graph_break"
        for reason in entry.break_reason.split("; restarted at: "):  # (a break, then the one Dynamo restarted at)
            counters[kind][reason] += 1
    # a break whose resume failed to build: Dynamo tallied it before failing (but takes back one inside a `with`
    # block of a user's context manager)
    if ran_eagerly and "; cannot resume: " in entry.break_reason and not entry.break_reason.endswith(
            "[graph_break_in_with]"):
        counters["graph_break"][entry.break_reason.split("; cannot resume: ")[0]] += 1




eval_frame._observers.append(_tally)
