"""torch.hub's cache folder (runtime layer, coverage surface): scripts ask for it to find downloaded weights. Loading
from the hub needs torch's network code and its pickled models; minitorch2 has neither, and says so."""
import os

_hub_dir = None


def get_dir():
    """$TORCH_HOME/hub, where TORCH_HOME defaults to $XDG_CACHE_HOME/torch (~/.cache/torch), or set_dir's folder."""
    if _hub_dir is not None:
        return _hub_dir
    cache = os.getenv("XDG_CACHE_HOME", os.path.join("~", ".cache"))
    return os.path.join(os.path.expanduser(os.getenv("TORCH_HOME", os.path.join(cache, "torch"))), "hub")


def set_dir(d):
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


def load(*args, **kwargs):
    raise NotImplementedError("minitorch2 cannot load models from the hub (torch.hub.load)")


def load_state_dict_from_url(*args, **kwargs):
    raise NotImplementedError("minitorch2 cannot download weights (torch.hub.load_state_dict_from_url)")
