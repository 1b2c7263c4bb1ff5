"""Helpers shared by passes (as torch.fx.passes.utils)."""
