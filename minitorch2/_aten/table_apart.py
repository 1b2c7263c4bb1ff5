"""The op table's rows for the op families no stage of the pipeline needs: random sampling (random_ops.py),
sorting (sorting.py), and take, scatter_reduce, index_copy and index_fill with their in-place forms
(indexing_reduce.py).

Runtime layer, part of THE operator table: table.py splices these rows in among its own. They are counted apart
from the lesson, as their kernels are (.ci/line_budget.py).
"""
from . import decompositions as dec, formulas_apart as fa, indexing_reduce, random_ops, sorting
from .derivatives_util import zeros_like_grad
from .overlap import Overlap
from .table_row import CORE, CORE_FACTORY, FACTORY, INPLACE, LAYOUT, OPTIONS, RANDOM, inplace, op

ROWS = [
    # ------------------------------------------------------------ random sampling
    op("uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM,
       random_ops.uniform_, zeros_like_grad),
    op("normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM,
       random_ops.normal_, zeros_like_grad, functional="normal_functional.default", method=True),
    op("random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM,
       random_ops.random_from),
    op("random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM, random_ops.random_),
    op("bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", RANDOM, random_ops.bernoulli_default,
       zeros_like_grad, method=True),
    op("bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", RANDOM, random_ops.bernoulli_p,
       zeros_like_grad, grad_fn="BernoulliBackward1"),
    op("bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM,
       random_ops.bernoulli_inplace, zeros_like_grad, grad_fn="BernoulliBackward1", functional="bernoulli.p"),
    op("bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) -> Tensor(a!)", INPLACE + RANDOM,
       random_ops.bernoulli_tensor_inplace, lambda grad: (zeros_like_grad(grad), None),
       grad_fn="BernoulliBackward2", functional="bernoulli.Tensor"),
    op("bernoulli.Tensor(Tensor self, Tensor p, *, Generator? generator=None) -> Tensor", RANDOM,
       random_ops.bernoulli_tensor, lambda grad: (zeros_like_grad(grad), None), grad_fn="BernoulliBackward1"),
    op("uniform(Tensor self, float from=0., float to=1., *, Generator? generator=None) -> Tensor", RANDOM,
       random_ops.uniform, zeros_like_grad),
    op("normal_functional(Tensor self, float mean=0., float std=1., *, Generator? generator=None) -> Tensor", RANDOM,
       random_ops.normal_functional, zeros_like_grad),
    op("multinomial(Tensor self, SymInt num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor",
       RANDOM, random_ops.multinomial, differentiable=False),
    op(f"randperm(SymInt n, *, ScalarType? dtype=long, {LAYOUT}) -> Tensor", CORE_FACTORY + RANDOM, random_ops.randperm),
    op(f"randperm.generator(SymInt n, *, Generator? generator, ScalarType? dtype=long, {LAYOUT}) -> Tensor",
       FACTORY + RANDOM, random_ops.randperm),
    op(f"rand(SymInt[] size, *, {OPTIONS}) -> Tensor", CORE_FACTORY + RANDOM, random_ops.rand),
    op(f"rand.generator(SymInt[] size, *, Generator? generator, {OPTIONS}) -> Tensor", FACTORY + RANDOM, random_ops.rand),
    op(f"randn(SymInt[] size, *, {OPTIONS}) -> Tensor", CORE_FACTORY + RANDOM, random_ops.randn),
    op(f"randn.generator(SymInt[] size, *, Generator? generator, {OPTIONS}) -> Tensor", FACTORY + RANDOM,
       random_ops.randn),
    op(f"randint(SymInt high, SymInt[] size, *, ScalarType? dtype=long, {LAYOUT}) -> Tensor", FACTORY + RANDOM,
       random_ops.randint),
    op(f"randint.generator(SymInt high, SymInt[] size, *, Generator? generator, ScalarType? dtype=long, {LAYOUT}) "
       "-> Tensor", FACTORY + RANDOM, random_ops.randint),
    op(f"randint.low(SymInt low, SymInt high, SymInt[] size, *, ScalarType? dtype=long, {LAYOUT}) -> Tensor",
       FACTORY + RANDOM, random_ops.randint_low),
    op(f"randint.low_generator(SymInt low, SymInt high, SymInt[] size, *, Generator? generator, "
       f"ScalarType? dtype=long, {LAYOUT}) -> Tensor", FACTORY + RANDOM, random_ops.randint_low),
    op(f"normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, {OPTIONS}) -> Tensor",
       FACTORY + RANDOM, random_ops.normal_float_float),
    op(f"rand_like(Tensor self, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor", FACTORY + RANDOM,
       random_ops.rand_like),
    op(f"randn_like(Tensor self, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor", FACTORY + RANDOM,
       random_ops.randn_like),
    op(f"randint_like(Tensor self, SymInt high, *, {OPTIONS}, MemoryFormat? memory_format=None) -> Tensor",
       FACTORY + RANDOM, random_ops.randint_like),
    op(f"randint_like.low_dtype(Tensor self, SymInt low, SymInt high, *, {OPTIONS}, "
       "MemoryFormat? memory_format=None) -> Tensor", FACTORY + RANDOM, random_ops.randint_like_low),
    # ------------------------------------------------------------ sorting (argsort is sort's indices, as torch's)
    op("sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", CORE, sorting.sort,
       sorting.sort_backward, grad_fn="SortBackward0", output_differentiability=(True, False)),
    op("sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
       (), sorting.sort_stable, sorting.sort_backward, grad_fn="SortBackward1", output_differentiability=(True, False)),
    op("topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)",
       CORE, sorting.topk, sorting.sort_backward, grad_fn="TopkBackward0", output_differentiability=(True, False)),
    # ------------------------------------------------------------ take, scatter_reduce, index_copy, index_fill
    op("take(Tensor self, Tensor index) -> Tensor", (), indexing_reduce.take, fa.take, decomposition=indexing_reduce.take_decomposition),
    op("scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) "
       "-> Tensor", CORE, indexing_reduce.scatter_reduce, fa.scatter_reduce),
    op("index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", (), indexing_reduce.index_copy,
       fa.index_copy, decomposition=indexing_reduce.index_copy_decomposition),
    op("index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", (),
       indexing_reduce.index_fill, fa.index_fill_scalar, decomposition=indexing_reduce.index_fill_decomposition),
    op("index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", (),
       indexing_reduce.index_fill, fa.index_fill_tensor, grad_fn="IndexFillBackward1", decomposition=indexing_reduce.index_fill_decomposition),
    inplace("index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)",
            indexing_reduce.index_copy, fa.index_copy, "IndexCopyBackward0",
            decomposition=dec.inplace_by_copy(indexing_reduce.index_copy_decomposition), method=True),
    inplace("index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
            indexing_reduce.index_fill, fa.index_fill_scalar, "IndexFillBackward0", overlap=Overlap.FILL,
            decomposition=dec.inplace_by_copy(indexing_reduce.index_fill_decomposition)),
    inplace("index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)",
            indexing_reduce.index_fill, fa.index_fill_tensor, "IndexFillBackward1", overlap=Overlap.FILL,
            decomposition=dec.inplace_by_copy(indexing_reduce.index_fill_decomposition)),
    inplace("scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, "
            "bool include_self=True) -> Tensor(a!)", indexing_reduce.scatter_reduce, fa.scatter_reduce,
            "ScatterReduceBackward0", method=True),
]
