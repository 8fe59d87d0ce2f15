// Absolute value with fabsf (clears the sign bit).
__global__ void abs_fabsf(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = fabsf(v);
    }
}
