// A template kernel, checked as the instantiation the file names.
template <typename T>
__global__ void scale_t(const T* __restrict__ x, T s, T* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] * s;
}
template __global__ void scale_t<float>(const float*, float, float*, int);
