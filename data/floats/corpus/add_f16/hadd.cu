#include <cuda_fp16.h>
// launch: grid = (n + 255) / 256, block = 256
__global__ void add_h(const __half* a, const __half* b, __half* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __hadd(a[i], b[i]);
}
