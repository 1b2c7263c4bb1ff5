"""torch.random: the default CPU generator's functions under the module name scripts import them from
(`from torch.random import fork_rng`, `torch.random.manual_seed`), and fork_rng, which saves that generator's state
and puts it back when its block ends. Library surface only; the generator itself is _random.py's."""
import contextlib

from ._random import default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = ["default_generator", "fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state"]


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type=None):
    """Run the block on the CPU generator's current state, restored afterwards (no accelerator here to fork)."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
