// Sigmoid via expf: the verdict depends on the device's expf.
__global__ void sigmoid_kernel(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = 1.0f / (1.0f + expf(-v));
    }
}
