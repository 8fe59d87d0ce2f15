#include <cuda_fp16.h>
// launch: grid = (n + 255) / 256, block = 256
__global__ void relu_hmax(const __half* __restrict__ x, __half* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __hmax(x[i], __float2half(0.0f));
}
