"""torch.version: the release minitorch2 follows, and no GPU toolkit (as a CPU-only build reports).

`torch.__version__` is a TorchVersion: a string that compares as a version with strings and tuples, as torch's does,
so that a library's `torch.__version__ >= "2.8"` picks what it picks under torch (as strings, "2.13" < "2.8")."""
import re

_VERSION = re.compile(r"v?(\d+(?:\.\d+)*)(a|b|rc|\.?dev)?(\d*)(?:\+(\S+))?$")


def _ordering(value):
    """A version's sort key: its release numbers (padded with zeros to 6), a pre-release or dev tag before the
    release itself, a local part (+cpu) after it; None where `value` is no version (then strings compare)."""
    match = _VERSION.match(value if isinstance(value, str) else ".".join(map(str, value)))
    if match is None:
        return None
    release = [int(n) for n in match[1].split(".")]
    return (*release, *[0] * (6 - len(release)), (-1, match[2], int(match[3] or 0)) if match[2] else (0, "", 0),
            match[4] is not None, match[4] or "")


class TorchVersion(str):
    __slots__ = ()


def _compare(name):
    def compare(self, other):
        mine, theirs = _ordering(self), _ordering(other) if isinstance(other, (str, tuple, list)) else None
        return getattr(str, name)(self, other) if mine is None or theirs is None else getattr(tuple, name)(mine, theirs)
    return compare


for _name in ("__gt__", "__lt__", "__eq__", "__ge__", "__le__"):
    setattr(TorchVersion, _name, _compare(_name))

__version__ = TorchVersion("2.13.0+minitorch2")
cuda = None
hip = None
debug = False
