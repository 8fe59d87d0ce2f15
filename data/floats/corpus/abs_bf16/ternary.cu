#include <cuda_bf16.h>
// launch: grid = (n + 255) / 256, block = 256
__global__ void abs_bf16_t(const __nv_bfloat16* x, __nv_bfloat16* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = __bfloat162float(x[i]);
        out[i] = __float2bfloat16(v < 0.0f ? -v : v);
    }
}
