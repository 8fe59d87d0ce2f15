# intent: wrong
# KernelBench level 1 problem 46 (Average Pooling 3D): kernel 3, stride 2, padding 1, count_include_pad (divide
# by 27); BUG: the output width is computed from the input height (copy-paste), and the input row stride is H.
# Right whenever H == W; the problem's input is 128 x 128 x 256 (H != W).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

avg_pool3d_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void avg_pool3d_kernel(const float* __restrict__ x, float* __restrict__ out, int planes, int D, int H,
                                  int W, int Do, int Ho, int Wo) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < planes * Do * Ho * Wo) {
        int p = idx / (Do * Ho * Wo);
        int od = (idx / (Ho * Wo)) % Do;
        int oh = (idx / Wo) % Ho;
        int ow = idx % Wo;
        const float* xp = x + (size_t)p * D * H * W;
        float s = 0.0f;
        for (int kd = 0; kd < 3; ++kd) {
            for (int kh = 0; kh < 3; ++kh) {
                for (int kw = 0; kw < 3; ++kw) {
                    int id = od * 2 - 1 + kd;
                    int ih = oh * 2 - 1 + kh;
                    int iw = ow * 2 - 1 + kw;
                    if (id >= 0 && id < D && ih >= 0 && ih < H && iw >= 0 && iw < W)
                        s += xp[(id * H + ih) * H + iw];
                }
            }
        }
        out[idx] = s / 27.0f;
    }
}

torch::Tensor avg_pool3d_cuda(torch::Tensor x) {
    const int N = x.size(0);
    const int C = x.size(1);
    const int D = x.size(2);
    const int H = x.size(3);
    const int W = x.size(4);
    const int Do = (D + 2 * 1 - 3) / 2 + 1;
    const int Ho = (H + 2 * 1 - 3) / 2 + 1;
    const int Wo = (H + 2 * 1 - 3) / 2 + 1;
    auto out = torch::empty({N, C, Do, Ho, Wo}, x.options());
    const int total = N * C * Do * Ho * Wo;
    const int threads = 256;
    avg_pool3d_kernel<<<(total + threads - 1) / threads, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(),
                                                                    N * C, D, H, W, Do, Ho, Wo);
    return out;
}
"""

avg_pool3d_cpp_source = "torch::Tensor avg_pool3d_cuda(torch::Tensor x);"

avg_pool3d = load_inline(
    name="avg_pool3d",
    cpp_sources=avg_pool3d_cpp_source,
    cuda_sources=avg_pool3d_source,
    functions=["avg_pool3d_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int = 3, stride: int = 2, padding: int = 1):
        super(ModelNew, self).__init__()
        self.avg_pool3d = avg_pool3d

    def forward(self, x) -> torch.Tensor:
        return self.avg_pool3d.avg_pool3d_cuda(x)
