"""minitorch2.utils (as torch.utils): dispatch-mode helpers, pytrees and the data pipeline (utils.data)."""
