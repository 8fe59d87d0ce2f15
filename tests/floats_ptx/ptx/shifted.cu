// Reads the neighbour: not elementwise.
__global__ void shifted(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) out[i] = x[i + 1];
}
