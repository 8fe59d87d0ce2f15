# intent: wrong: variance with Bessel's correction (divides by HW - 1; instance norm uses the biased variance)
# KernelBench level 1 problem 34 (InstanceNorm), written as code models write answers: one block per (n, c) plane, sum and sum of squares in one pass (E[x^2] - E[x]^2), rsqrtf.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

instance_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void instance_norm_kernel(const float* __restrict__ x, float* __restrict__ out, int HW, float eps) {
    __shared__ float s1[256];
    __shared__ float s2[256];
    const float* xp = x + (size_t)blockIdx.x * HW;
    float* op = out + (size_t)blockIdx.x * HW;
    float a = 0.0f, b = 0.0f;
    for (int i = threadIdx.x; i < HW; i += blockDim.x) {
        float v = xp[i];
        a += v;
        b += v * v;
    }
    s1[threadIdx.x] = a;
    s2[threadIdx.x] = b;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            s1[threadIdx.x] += s1[threadIdx.x + s];
            s2[threadIdx.x] += s2[threadIdx.x + s];
        }
        __syncthreads();
    }
    float mean = s1[0] / HW;
    float var = (s2[0] - HW * mean * mean) / (HW - 1);
    float inv = rsqrtf(var + eps);
    for (int i = threadIdx.x; i < HW; i += blockDim.x) op[i] = (xp[i] - mean) * inv;
}

torch::Tensor instance_norm_cuda(torch::Tensor x) {
    const int N = x.size(0);
    const int C = x.size(1);
    const int HW = x.size(2) * x.size(3);
    auto out = torch::empty_like(x);
    instance_norm_kernel<<<N * C, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), HW, 1e-5f);
    return out;
}
"""

instance_norm_cpp_source = "torch::Tensor instance_norm_cuda(torch::Tensor x);"

instance_norm = load_inline(
    name="instance_norm",
    cpp_sources=instance_norm_cpp_source,
    cuda_sources=instance_norm_source,
    functions=["instance_norm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super(ModelNew, self).__init__()
        self.instance_norm = instance_norm

    def forward(self, x) -> torch.Tensor:
        return self.instance_norm.instance_norm_cuda(x)
