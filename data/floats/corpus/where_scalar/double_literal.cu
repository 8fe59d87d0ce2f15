// The scalar branch written as a double literal: 0.1 converts to float only at the store, same value.
__global__ void where_scalar_d(const float* __restrict__ x, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = x[i]; out[i] = v > 0.5 ? v : 0.1; }
}
