// HardSigmoid multiplying by 1.0f / 6.0f instead of dividing by 6 (ATen divides): the reciprocal is rounded,
// so the product is off by one ulp on some inputs.
__global__ void hardsigmoid_mul(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float t = x[idx] + 3.0f;
        t = t < 0.0f ? 0.0f : (t > 6.0f ? 6.0f : t);
        out[idx] = t * (1.0f / 6.0f);
    }
}
