"""The op table's `core` tags are torch's: every registered overload that torch also has is in torch's core ATen
opset exactly when it is in ours (export's run_decompositions() keeps the core ops whole and decomposes the rest)."""
import torch

import minitorch2


def _torchs(namespace, overload):
    packet_name, _, overload_name = overload.__name__.partition(".")
    packet = getattr(getattr(torch.ops, namespace), packet_name, None)
    return getattr(packet, overload_name, None) if packet is not None else None


def test_core_tags_are_torchs():
    compared, differing = 0, []
    for namespace in ("aten", "prims"):
        for ours in getattr(minitorch2.ops, namespace).overloads():
            theirs = _torchs(namespace, ours)
            if theirs is None:
                continue
            compared += 1
            if ("core" in ours.tags) != (torch.Tag.core in theirs.tags):
                differing.append(f"{namespace}::{ours.__name__}: ours {sorted(ours.tags)}, "
                                 f"torch's {sorted(str(tag).removeprefix('Tag.') for tag in theirs.tags)}")
    assert compared > 500
    assert differing == []
