#define FLT_MAX_ 3.402823466e+38f
__global__ void nan_to_num(const float* __restrict__ x, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        out[i] = v != v ? 0.0f : (v > FLT_MAX_ ? FLT_MAX_ : (v < -FLT_MAX_ ? -FLT_MAX_ : v));
    }
}
