#include <cuda_fp16.h>
// launch: grid = (n + 255) / 256, block = 256
__global__ void relu_h_nan(const __half* x, __half* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half h = x[i];
        out[i] = __hisnan(h) ? h : __hmax(h, __float2half(0.0f));
    }
}
