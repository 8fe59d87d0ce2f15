import torch
def program(x, w):
    i = torch.arange(x.numel(), device=x.device).view_as(x)
    return (i * x.shape[1] + x) % w.shape[0]
def example_inputs():
    return (torch.randint(-100, 100, (5, 13), dtype=torch.int64), torch.randn(11))
