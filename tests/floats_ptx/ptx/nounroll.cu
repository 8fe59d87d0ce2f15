// float4 grid-stride ReLU with `#pragma unroll 1`: nvcc writes `.pragma "nounroll";` before the loop (issue 25:
// the PTX level refused it). The tail (n % 4 elements) is handled by thread 0 after the vector loop.
// launch: grid = 2, block = 32
__global__ void relu_vec4_nounroll(const float* __restrict__ x, float* __restrict__ out, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    int n4 = n / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* o4 = reinterpret_cast<float4*>(out);
#pragma unroll 1
    for (int i = tid; i < n4; i += stride) {
        float4 v = x4[i];
        v.x = v.x < 0.0f ? 0.0f : v.x;
        v.y = v.y < 0.0f ? 0.0f : v.y;
        v.z = v.z < 0.0f ? 0.0f : v.z;
        v.w = v.w < 0.0f ? 0.0f : v.w;
        o4[i] = v;
    }
    if (tid == 0) {
        for (int j = n4 * 4; j < n; j++) {
            float v = x[j];
            out[j] = v < 0.0f ? 0.0f : v;
        }
    }
}
