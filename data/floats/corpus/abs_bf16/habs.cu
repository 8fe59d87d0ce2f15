#include <cuda_bf16.h>
// launch: grid = (n + 255) / 256, block = 256
__global__ void abs_bf16(const __nv_bfloat16* x, __nv_bfloat16* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __habs(x[i]);
}
