"""minitorch2.fx.passes (as torch.fx.passes): analyses and rewrites over FX graphs."""
