// HardSigmoid dividing by 6 like ATen, clamping with ternaries.
__global__ void hardsigmoid_div(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        out[idx] = (v + 3.0f < 0.0f ? 0.0f : (v + 3.0f > 6.0f ? 6.0f : v + 3.0f)) / 6.0f;
    }
}
