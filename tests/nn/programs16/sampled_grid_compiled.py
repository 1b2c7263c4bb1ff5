"""The spatial transformer tutorial's `stn` step compiled with the default backend for inference: theta regressed by a
linear layer, F.affine_grid over it, F.grid_sample of the image; the warped images' sum printed."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
regressor = torch.nn.Linear(4, 6)


@torch.compile
def warped_sum(images, features):
    theta = regressor(features).view(-1, 2, 3)
    grid = F.affine_grid(theta, images.size(), align_corners=False)
    return F.grid_sample(images, grid, align_corners=False).sum()


with torch.no_grad():
    print(f"{warped_sum(torch.rand(2, 1, 5, 5), torch.randn(2, 4)).item():.4f}")
