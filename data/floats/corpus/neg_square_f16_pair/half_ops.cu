#include <cuda_fp16.h>
// launch: grid = (n + 255) / 256, block = 256
__global__ void neg_sq_h(const __half* x, __half* neg, __half* sq, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half h = x[i];
        neg[i] = __hneg(h);
        sq[i] = __hmul(h, h);
    }
}
