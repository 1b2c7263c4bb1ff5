"""CosineSimilarity (as torch.nn.modules.distance): F.cosine_similarity along a dim.

Runtime layer, coverage surface (PairwiseDistance, the other distance, is in activation_more.py).
"""
from .. import functional as F
from .module import Module

__all__ = ["CosineSimilarity"]


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
