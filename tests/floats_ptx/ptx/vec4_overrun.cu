// Model-written float4 ReLU: one float4 per thread, guarded only by idx < n, so the last vector runs past
// the end of the arrays when n is not a multiple of 4.
// launch: grid = ((n + 3) / 4 + 255) / 256, block = 256
__global__ void relu_vec4(const float* __restrict__ x, float* __restrict__ out, int n) {
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (idx < n) {
        float4 v = reinterpret_cast<const float4*>(x)[idx / 4];
        float4 r;
        r.x = v.x < 0.0f ? 0.0f : v.x;
        r.y = v.y < 0.0f ? 0.0f : v.y;
        r.z = v.z < 0.0f ? 0.0f : v.z;
        r.w = v.w < 0.0f ? 0.0f : v.w;
        reinterpret_cast<float4*>(out)[idx / 4] = r;
    }
}
