"""torch.distributions.OneHotCategorical: a Categorical whose samples are one-hot vectors over its events."""
from .. import _factories
from .._tensor import Size
from ..nn import functional as F
from . import constraints
from .categorical import Categorical
from .distribution import Distribution


class OneHotCategorical(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        param = self._categorical._param
        super().__init__(param.size()[:-1], param.size()[-1:], validate_args=validate_args)

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def mean(self):
        return self._categorical.probs

    @property
    def mode(self):
        probs = self._categorical.probs
        return F.one_hot(probs.argmax(-1), num_classes=probs.shape[-1]).to(probs)

    def expand(self, batch_shape, _instance=None):
        return self._expanded(OneHotCategorical, batch_shape, _instance,
                              _categorical=self._categorical.expand(batch_shape))

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def variance(self):
        return self._categorical.probs * (1 - self._categorical.probs)

    def sample(self, sample_shape=Size()):
        probs = self._categorical.probs
        indices = self._categorical.sample(sample_shape)
        return F.one_hot(indices, self._categorical._num_events).to(probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def enumerate_support(self, expand=True):
        """The n one-hot vectors, one per leading index, broadcast over the batch (or left size 1 there)."""
        n = self._event_shape[0]
        values = _factories.eye(n, dtype=self._categorical._param.dtype)
        values = values.view((n,) + (1,) * len(self._batch_shape) + (n,))
        return values.expand((n,) + tuple(self._batch_shape) + (n,)) if expand else values

    def entropy(self):
        return self._categorical.entropy()


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """A OneHotCategorical whose rsample passes gradients to probs straight through the one-hot draw."""
    has_rsample = True

    def rsample(self, sample_shape=Size()):
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())
