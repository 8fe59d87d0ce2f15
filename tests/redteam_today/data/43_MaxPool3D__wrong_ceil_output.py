# intent: wrong
# KernelBench level 1 problem 43 (Max Pooling 3D): kernel 3, stride 2, padding 1, dilation 3; out-of-range taps
# skipped; BUG: the output extent is computed in ceil mode ((L + 2p - d(k-1) - 1 + s - 1) / s + 1), torch's is
# floor mode. The two agree whenever L + 2p - d(k-1) - 1 is a multiple of the stride.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

max_pool3d_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void max_pool3d_kernel(const float* __restrict__ x, float* __restrict__ out, int planes, int D, int H,
                                  int W, int Do, int Ho, int Wo) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < planes * Do * Ho * Wo) {
        int p = idx / (Do * Ho * Wo);
        int od = (idx / (Ho * Wo)) % Do;
        int oh = (idx / Wo) % Ho;
        int ow = idx % Wo;
        const float* xp = x + (size_t)p * D * H * W;
        float m = -INFINITY;
        for (int kd = 0; kd < 3; ++kd) {
            for (int kh = 0; kh < 3; ++kh) {
                for (int kw = 0; kw < 3; ++kw) {
                    int id = od * 2 - 1 + kd * 3;
                    int ih = oh * 2 - 1 + kh * 3;
                    int iw = ow * 2 - 1 + kw * 3;
                    if (id >= 0 && id < D && ih >= 0 && ih < H && iw >= 0 && iw < W)
                        m = fmaxf(m, xp[(id * H + ih) * W + iw]);
                }
            }
        }
        out[idx] = m;
    }
}

torch::Tensor max_pool3d_cuda(torch::Tensor x) {
    const int N = x.size(0);
    const int C = x.size(1);
    const int D = x.size(2);
    const int H = x.size(3);
    const int W = x.size(4);
    const int Do = (D + 2 * 1 - 3 * (3 - 1) - 1 + 2 - 1) / 2 + 1;
    const int Ho = (H + 2 * 1 - 3 * (3 - 1) - 1 + 2 - 1) / 2 + 1;
    const int Wo = (W + 2 * 1 - 3 * (3 - 1) - 1 + 2 - 1) / 2 + 1;
    auto out = torch::empty({N, C, Do, Ho, Wo}, x.options());
    const int total = N * C * Do * Ho * Wo;
    const int threads = 256;
    max_pool3d_kernel<<<(total + threads - 1) / threads, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(),
                                                                    N * C, D, H, W, Do, Ho, Wo);
    return out;
}
"""

max_pool3d_cpp_source = "torch::Tensor max_pool3d_cuda(torch::Tensor x);"

max_pool3d = load_inline(
    name="max_pool3d",
    cpp_sources=max_pool3d_cpp_source,
    cuda_sources=max_pool3d_source,
    functions=["max_pool3d_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int = 3, stride: int = 2, padding: int = 1, dilation: int = 3):
        super(ModelNew, self).__init__()
        self.max_pool3d = max_pool3d

    def forward(self, x) -> torch.Tensor:
        return self.max_pool3d.max_pool3d_cuda(x)
