// __fdividef: fast approximate division (2 ulp in range); not modelled bit-exactly.
__global__ void reciprocal_fast(const float* __restrict__ x, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __fdividef(1.0f, x[i]);
}
