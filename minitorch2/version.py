"""torch.version: the release minitorch2 follows, and no GPU toolkit (as a CPU-only build reports)."""
__version__ = "2.13.0+minitorch2"
cuda = None
hip = None
debug = False
