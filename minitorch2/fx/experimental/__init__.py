"""torch.fx.experimental: symbolic_shapes, the ShapeEnv of dynamic shapes (runtime layer, under FakeTensor)."""
