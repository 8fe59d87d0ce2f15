// float4 ReLU done right: full vectors for the first n / 4 * 4 elements, then one scalar element per thread
// for the tail, each guarded by its own index.
// launch: grid = ((n + 3) / 4 + 255) / 256, block = 256
__global__ void relu_vec4_tail(const float* __restrict__ x, float* __restrict__ out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int i = t * 4;
    if (i + 3 < n) {
        float4 v = reinterpret_cast<const float4*>(x)[t];
        float4 r;
        r.x = v.x < 0.0f ? 0.0f : v.x;
        r.y = v.y < 0.0f ? 0.0f : v.y;
        r.z = v.z < 0.0f ? 0.0f : v.z;
        r.w = v.w < 0.0f ? 0.0f : v.w;
        reinterpret_cast<float4*>(out)[t] = r;
    } else {
        for (int k = 0; k < 4; ++k) {
            if (i + k < n) {
                float v = x[i + k];
                out[i + k] = v < 0.0f ? 0.0f : v;
            }
        }
    }
}
