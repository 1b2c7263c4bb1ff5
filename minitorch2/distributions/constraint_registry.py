"""torch.distributions.biject_to and transform_to: the transform from unconstrained reals onto a constraint's set,
looked up by the constraint's class (so biject_to(positive) is greater_than's Exp-then-shift, as torch's)."""
from . import constraints, transforms, transforms_structured


class ConstraintRegistry:
    def __init__(self):
        self._registry = {}

    def register(self, constraint, factory=None):
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not (isinstance(constraint, type) and issubclass(constraint, constraints.Constraint)):
            raise TypeError(f"Expected constraint to be either a Constraint subclass or instance, but got "
                            f"{constraint}")
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint):
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(f"Cannot transform {type(constraint).__name__} constraints") from None
        return factory(constraint)


biject_to, transform_to = ConstraintRegistry(), ConstraintRegistry()
for _registry in (biject_to, transform_to):
    _registry.register(constraints.real, lambda c: transforms.identity_transform)
    _registry.register(constraints.independent, lambda c, r=_registry: transforms.IndependentTransform(
        r(c.base_constraint), c.reinterpreted_batch_ndims))
    for _kind in (constraints.greater_than, constraints.greater_than_eq):
        _registry.register(_kind, lambda c: transforms.ComposeTransform(
            [transforms.ExpTransform(), transforms.AffineTransform(c.lower_bound, 1)]))
    _registry.register(constraints.less_than, lambda c: transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(c.upper_bound, -1)]))
    for _kind in (constraints.interval, constraints.half_open_interval):
        _registry.register(_kind, lambda c: transforms.SigmoidTransform()
                           if isinstance(c.lower_bound, (int, float)) and isinstance(c.upper_bound, (int, float))
                           and c.lower_bound == 0 and c.upper_bound == 1 else transforms.ComposeTransform(
                               [transforms.SigmoidTransform(),
                                transforms.AffineTransform(c.lower_bound, c.upper_bound - c.lower_bound)]))
biject_to.register(constraints.simplex, lambda c: transforms.StickBreakingTransform())
transform_to.register(constraints.simplex, lambda c: transforms.SoftmaxTransform())
transform_to.register(constraints.lower_cholesky, lambda c: transforms.LowerCholeskyTransform())
transform_to.register(constraints.positive_definite, lambda c: transforms_structured.PositiveDefiniteTransform())
transform_to.register(constraints.positive_semidefinite, lambda c: transforms_structured.PositiveDefiniteTransform())
for _registry in (biject_to, transform_to):
    _registry.register(constraints.corr_cholesky, lambda c: transforms_structured.CorrCholeskyTransform())
    _registry.register(constraints.cat, lambda c, r=_registry: transforms_structured.CatTransform(
        [r(part) for part in c.cseq], c.dim, c.lengths))
    _registry.register(constraints.stack, lambda c, r=_registry: transforms_structured.StackTransform(
        [r(part) for part in c.cseq], c.dim))
