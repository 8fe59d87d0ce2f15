# intent: wrong: window starts at the output position (padding 1 ignored: each window is shifted by one row and column)
# KernelBench level 1 problem 42 (Max Pooling 2D), written as code models write answers: kernel 4, stride 1, padding 1: one thread per output, padding skipped.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

max_pool2d_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void max_pool2d_kernel(const float* __restrict__ x, float* __restrict__ out, int planes, int H, int W,
                                  int Ho, int Wo) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < planes * Ho * Wo) {
        int p = idx / (Ho * Wo);
        int oy = (idx / Wo) % Ho;
        int ox = idx % Wo;
        const float* xp = x + (size_t)p * H * W;
        float m = -INFINITY;
        for (int ky = 0; ky < 4; ++ky) {
            for (int kx = 0; kx < 4; ++kx) {
                int iy = oy + ky;
                int ix = ox + kx;
                if (iy >= 0 && iy < H && ix >= 0 && ix < W) m = fmaxf(m, xp[iy * W + ix]);
            }
        }
        out[idx] = m;
    }
}

torch::Tensor max_pool2d_cuda(torch::Tensor x) {
    const int N = x.size(0);
    const int C = x.size(1);
    const int H = x.size(2);
    const int W = x.size(3);
    const int Ho = H + 2 - 4 + 1;
    const int Wo = W + 2 - 4 + 1;
    auto out = torch::empty({N, C, Ho, Wo}, x.options());
    const int total = N * C * Ho * Wo;
    const int threads = 256;
    max_pool2d_kernel<<<(total + threads - 1) / threads, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(),
                                                                    N * C, H, W, Ho, Wo);
    return out;
}
"""

max_pool2d_cpp_source = "torch::Tensor max_pool2d_cuda(torch::Tensor x);"

max_pool2d = load_inline(
    name="max_pool2d",
    cpp_sources=max_pool2d_cpp_source,
    cuda_sources=max_pool2d_source,
    functions=["max_pool2d_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int = 4, stride: int = 1, padding: int = 1, dilation: int = 1):
        super(ModelNew, self).__init__()
        self.max_pool2d = max_pool2d

    def forward(self, x) -> torch.Tensor:
        return self.max_pool2d.max_pool2d_cuda(x)
