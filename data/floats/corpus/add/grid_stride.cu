// Grid-stride sum with read-only cached loads: each thread handles up to four elements.
// launch: grid = (n + 1023) / 1024, block = 256
__global__ void add_grid_stride(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = __ldg(&a[i]) + __ldg(&b[i]);
    }
}
