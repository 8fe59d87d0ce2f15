#include <cuda_fp16.h>
// launch: grid = (n + 255) / 256, block = 256
__global__ void add_h_gs(const half* a, const half* b, half* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = a[i] + b[i];
}
