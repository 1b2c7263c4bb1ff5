import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable
class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        print("needs", ctx.needs_input_grad)
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias
class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None
class MyCube(Function):
    @staticmethod
    def forward(x):
        dx = 3 * x ** 2
        result = x ** 3
        return result, dx
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)
    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        return grad_output * dx + grad_dx * 6 * x
class AddOneInplace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
class NonDiffSort(Function):
    @staticmethod
    def forward(ctx, x):
        out, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return out, idx
    @staticmethod
    @once_differentiable
    def backward(ctx, g, _):
        idx, = ctx.saved_tensors
        gi = torch.zeros_like(g)
        gi.index_add_(0, idx, g)
        return gi
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = Exp.apply(x); y.sum().backward(); print(y, x.grad)
inp = torch.randn(4, 3, dtype=torch.double, requires_grad=True)
w = torch.randn(2, 3, dtype=torch.double, requires_grad=True)
b = torch.randn(2, dtype=torch.double, requires_grad=False)
out = LinearFunction.apply(inp, w, b); out.sum().backward()
print(out, inp.grad, w.grad)
print(torch.autograd.gradcheck(LinearFunction.apply, (inp, w, b), eps=1e-6, atol=1e-4))
c = torch.randn(3, requires_grad=True)
print(MulConstant.apply(c, 5.0).grad_fn is not None)
(MulConstant.apply(c, 5.0) ** 2).sum().backward(); print(c.grad)
x = torch.tensor([1., 2.], requires_grad=True)
r, dx = MyCube.apply(x)
(r.sum() + dx.sum()).backward(); print(x.grad)
a = torch.zeros(3, requires_grad=True)
a2 = a.clone()
o = AddOneInplace.apply(a2); (o * 2).sum().backward(); print(o, a.grad, o is a2)
try:
    AddOneInplace.apply(a)
except RuntimeError as e:
    print("RuntimeError:", e)
v = torch.tensor([3., 1., 2.], requires_grad=True)
s, i = NonDiffSort.apply(v); print(s, i, i.requires_grad)
(s * torch.tensor([1., 10., 100.])).sum().backward(); print(v.grad)
s, i = NonDiffSort.apply(v)
g, = torch.autograd.grad(s.sum(), v, create_graph=True)
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
