#include <cuda_bf16.h>
// The product of the widened operands in float, rounded once to bfloat16 (one operand round-tripped through
// __float2bfloat16 on the way, which is exact).
// launch: grid = (n + 255) / 256, block = 256
__global__ void mul_bf16_f(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float p = __bfloat162float(__float2bfloat16(__bfloat162float(a[i]))) * __bfloat162float(b[i]);
        out[i] = __float2bfloat16(p);
    }
}
