# intent: correct over the reals: one warp per row, lanes stride over K, __shfl_down_sync sum
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matvec_source = """
#include <torch/extension.h>

__global__ void matvec_kernel(const float* A, const float* v, float* y, int M, int K) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= M) return;
    float sum = 0.0f;
    for (int k = lane; k < K; k += 32) {
        sum += A[warp * K + k] * v[k];
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(0xffffffff, sum, offset);
    }
    if (lane == 0) y[warp] = sum;
}

torch::Tensor matvec_cuda(torch::Tensor A, torch::Tensor B) {
    int M = A.size(0);
    int K = A.size(1);
    auto y = torch::empty({M, 1}, A.options());
    int threads = 128;
    int blocks = (M * 32 + threads - 1) / threads;
    matvec_kernel<<<blocks, threads>>>(A.data_ptr<float>(), B.data_ptr<float>(), y.data_ptr<float>(), M, K);
    return y;
}
"""

matvec_cpp_source = "torch::Tensor matvec_cuda(torch::Tensor A, torch::Tensor B);"

matvec = load_inline(
    name="matvec",
    cpp_sources=matvec_cpp_source,
    cuda_sources=matvec_source,
    functions=["matvec_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.matvec = matvec

    def forward(self, A, B):
        return self.matvec.matvec_cuda(A, B)
