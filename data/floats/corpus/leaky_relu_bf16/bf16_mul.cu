#include <cuda_bf16.h>
// The slope as a bfloat16 constant (0.010009765625) and a bfloat16 multiply.
// launch: grid = (n + 255) / 256, block = 256
__global__ void leaky_bf16_h(const __nv_bfloat16* x, __nv_bfloat16* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat16 v = x[i];
        out[i] = __hgt(v, __float2bfloat16(0.0f)) ? v : __hmul(v, __float2bfloat16(0.01f));
    }
}
