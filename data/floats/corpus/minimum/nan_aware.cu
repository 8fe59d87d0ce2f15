// Minimum that propagates NaN like torch.minimum.
__global__ void minimum_nan(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float x = a[idx];
        float y = b[idx];
        out[idx] = (x != x) ? x : ((y != y) ? y : (x < y ? x : y));
    }
}
