#include <cuda_fp16.h>
// launch: grid = (n + 255) / 256, block = 256
__global__ void hsig_h(const __half* x, __half* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = __half2float(x[i]) + 3.0f;
        t = t < 0.0f ? 0.0f : (t > 6.0f ? 6.0f : t);
        out[i] = __float2half(t * (1.0f / 6.0f));
    }
}
