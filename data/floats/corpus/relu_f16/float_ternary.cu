#include <cuda_fp16.h>
// ReLU on half data, computed in float (the usual widening idiom).
// launch: grid = (n + 255) / 256, block = 256
__global__ void relu_f16(const __half* x, __half* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = __half2float(x[i]);
        out[i] = __float2half(v > 0.0f ? v : 0.0f);
    }
}
