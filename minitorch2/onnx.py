"""torch.onnx: importable, as scripts import it at the top; minitorch2 exports no ONNX, and says so."""


def export(model, args=(), f=None, *positional, **options):
    raise NotImplementedError("minitorch2 does not export ONNX models (torch.onnx.export)")


def is_in_onnx_export():
    return False
