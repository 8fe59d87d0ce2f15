// Model-written "fix" of the float4 overrun: the last thread shifts its vector back to end at n. It stays in
// bounds, but when n is not a multiple of 4 that vector overlaps the previous thread's (two threads write the
// same elements) and is misaligned.
// launch: grid = ((n + 3) / 4 + 255) / 256, block = 256
__global__ void relu_vec4_shift(const float* __restrict__ x, float* __restrict__ out, int n) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (i < n) {
        if (i + 4 > n) i = n - 4;
        float4 v = *reinterpret_cast<const float4*>(x + i);
        float4 r;
        r.x = v.x < 0.0f ? 0.0f : v.x;
        r.y = v.y < 0.0f ? 0.0f : v.y;
        r.z = v.z < 0.0f ? 0.0f : v.z;
        r.w = v.w < 0.0f ? 0.0f : v.w;
        *reinterpret_cast<float4*>(out + i) = r;
    }
}
