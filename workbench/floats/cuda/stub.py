"""What the CUDA frontend knows by name: the stub header clang parses kernels with, and the call tables.

PyPI ``libclang`` parses ``.cu`` files with ``-x cuda --cuda-host-only`` and this stub instead of the CUDA
toolkit (NOTES): qualifiers, the builtin index variables, vector types and the math functions the frontend
models. ``cudaConfigureCall`` must exist or ``<<<...>>>`` fails to parse. ``min``/``max`` have the float
overloads of CUDA's ``crt/math_functions.hpp`` (``min(float, float)`` is ``fminf``; mixed int/float
arguments convert to float), so clang resolves them as nvcc does.
"""

from __future__ import annotations

from workbench.floats.ir import Op, Ty

STUB_NAME = "/workbench_floats/cuda_stub.h"
STUB = r"""
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __forceinline__ inline
#define __restrict__ __restrict
typedef unsigned long size_t;
typedef long int64_t;
typedef int int32_t;
typedef unsigned int uint32_t;
struct uint3 { unsigned int x, y, z; };
struct dim3 { unsigned int x, y, z; __host__ __device__ dim3(unsigned int a = 1, unsigned int b = 1, unsigned int c = 1); };
struct float4 { float x, y, z, w; };
struct float2 { float x, y; };
extern const __device__ uint3 threadIdx; extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim; extern const __device__ dim3 gridDim;
extern "C" int cudaConfigureCall(dim3 g, dim3 b, size_t s = 0, void* st = 0);
#define WB_F1(n) __host__ __device__ float n(float);
#define WB_F2(n) __host__ __device__ float n(float, float);
WB_F2(fmaxf) WB_F2(fminf) WB_F1(fabsf) WB_F2(copysignf) WB_F1(sqrtf) WB_F1(expf) WB_F1(exp2f) WB_F1(__expf)
WB_F1(logf) WB_F1(log1pf) WB_F1(log2f) WB_F1(__logf) WB_F1(tanhf) WB_F1(erff) WB_F1(erfcf) WB_F1(sinf)
WB_F1(cosf) WB_F2(powf) WB_F2(__powf) WB_F1(rsqrtf) WB_F1(expm1f) WB_F1(cbrtf) WB_F2(__fmul_rn) WB_F2(__fadd_rn)
WB_F2(__fsub_rn) WB_F2(__fdiv_rn) WB_F1(__frcp_rn) WB_F1(__fsqrt_rn) WB_F2(__fdividef) WB_F1(__saturatef)
WB_F1(__frsqrt_rn) WB_F2(__fmul_rz) WB_F2(__fadd_rz)
__host__ __device__ bool isnan(float); __host__ __device__ bool isnan(double);
__host__ __device__ float fmaf(float, float, float); __host__ __device__ float __fmaf_rn(float, float, float);
__host__ __device__ double fmax(double, double); __host__ __device__ double fmin(double, double);
__host__ __device__ double fabs(double); __host__ __device__ double exp(double); __host__ __device__ double tanh(double);
__host__ __device__ int min(int, int); __host__ __device__ int max(int, int);
__host__ __device__ unsigned int min(unsigned int, unsigned int); __host__ __device__ unsigned int max(unsigned int, unsigned int);
__host__ __device__ long long min(long long, long long); __host__ __device__ long long max(long long, long long);
__host__ __device__ float min(float, float); __host__ __device__ float max(float, float);
__host__ __device__ float min(float, int); __host__ __device__ float max(float, int);
__host__ __device__ float min(int, float); __host__ __device__ float max(int, float);
__host__ __device__ double min(double, double); __host__ __device__ double max(double, double);
__host__ __device__ float4 make_float4(float, float, float, float); __host__ __device__ float2 make_float2(float, float);
template <class T> __device__ T __ldg(const T*);
__device__ float atomicAdd(float*, float); __device__ int atomicAdd(int*, int); __device__ float atomicExch(float*, float);
__device__ float atomicMax(float*, float); __device__ int atomicCAS(int*, int, int);
__device__ float __shfl_sync(unsigned, float, int, int = 32); __device__ float __shfl_down_sync(unsigned, float, unsigned, int = 32);
__device__ float __shfl_xor_sync(unsigned, float, int, int = 32); __device__ int __any_sync(unsigned, int);
__device__ int __all_sync(unsigned, int); __device__ unsigned __ballot_sync(unsigned, int);
__device__ void __syncthreads(); __device__ void __syncwarp(unsigned = 0xffffffff); __device__ void __threadfence();
extern "C" int printf(const char*, ...);
"""
# Headers model-written kernels include; the stub above already declares what the frontend knows, so they
# are empty (anything else they would declare is refused when used).
EMPTY_HEADERS = ("cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "math.h", "cmath",
                 "stdint.h", "cstdint", "stdio.h", "cstdio", "math_constants.h", "algorithm")


def _half_header(t: str, to_f: str, from_f: str) -> str:
    """The declarations of cuda_fp16.h / cuda_bf16.h the frontend models (CUDA 13.0 headers): the type with its
    float constructor (``__float2half``, RNE) and float conversion (``__half2float``, exact), the conversion
    intrinsics, arithmetic, comparisons and the operators cuda_fp16.hpp defines through them."""
    ops = "".join(f"__host__ __device__ {t} operator{o}(const {t}&, const {t}&); " for o in "+-*/") + \
        "".join(f"__host__ __device__ bool operator{o}(const {t}&, const {t}&); " for o in ("<", ">", "<=", ">=", "==", "!=")) + \
        f"__host__ __device__ {t} operator-(const {t}&); "
    fns = "".join(f"__host__ __device__ {t} {n}({t}, {t}); " for n in (
        "__hadd", "__hsub", "__hmul", "__hadd_rn", "__hsub_rn", "__hmul_rn", "__hdiv", "__hmax", "__hmin")) + \
        "".join(f"__host__ __device__ bool {n}({t}, {t}); " for n in ("__hgt", "__hlt", "__hge", "__hle", "__heq", "__hne")) + \
        f"__host__ __device__ {t} __hfma({t}, {t}, {t}); __host__ __device__ {t} __hneg({t}); " \
        f"__host__ __device__ {t} __habs({t}); __host__ __device__ bool __hisnan({t}); "
    return (f"struct {t} {{ unsigned short __x; __host__ __device__ {t}(); __host__ __device__ {t}(float); "
            f"__host__ __device__ {t}(double); __host__ __device__ operator float() const; }};\n"
            f"__host__ __device__ float {to_f}({t}); __host__ __device__ {t} {from_f}(float); "
            f"__host__ __device__ {t} {from_f}_rn(float);\n{fns}\n{ops}\n")


# Headers with content: the half-precision types exist only where the kernel includes their header, as with
# nvcc (a kernel naming __half without <cuda_fp16.h> gets a one-line error naming the header).
HALF_HEADERS = {
    "cuda_fp16.h": "#pragma once\n" + _half_header("__half", "__half2float", "__float2half") + "typedef __half half;\n",
    "cuda_bf16.h": "#pragma once\n" + _half_header("__nv_bfloat16", "__bfloat162float", "__float2bfloat16")
    + "typedef __nv_bfloat16 nv_bfloat16;\n",
}
HALF_TYPE_HEADER = {"__half": "cuda_fp16.h", "half": "cuda_fp16.h", "__nv_bfloat16": "cuda_bf16.h",
                    "nv_bfloat16": "cuda_bf16.h"}
# cuda_fp16.hpp / cuda_bf16.hpp, CUDA 13.0. Conversions: __float2half(_rn) is cvt.rn.f16.f32 (RNE),
# __half2float cvt.f32.f16 (exact), __float2bfloat16(_rn) cvt.rn.bf16.f32 (RNE), __bfloat162float a shift.
# __hadd/__hsub/__hmul are add/sub/mul.f16 (bf16: fma.rn.bf16 with 1.0 / -0.0), one rounding each; without
# `_rn` PTX lets the code generator fuse a mul/add pair into an fma, the `_rn` forms "prevent floating-point
# contractions of mul+add into fma". __hfma is fma.rn; __hneg/__habs neg/abs.f16 (sign bit); __hmax/__hmin
# max/min.f16 (a NaN operand ignored, both NaN -> canonical NaN). __hdiv is rcp.approx.ftz.f32 times a plus
# a correction sequence: not modelled bit-exactly (opaque, "undecided").
HALF_CONVERT = {"__half2float": Ty.F32, "__bfloat162float": Ty.F32, "__float2half": Ty.F16, "__float2half_rn": Ty.F16,
                "__float2bfloat16": Ty.BF16, "__float2bfloat16_rn": Ty.BF16}
HALF_MATH = {"__hadd": Op.ADD, "__hsub": Op.SUB, "__hmul": Op.MUL, "__hadd_rn": Op.ADD, "__hsub_rn": Op.SUB,
             "__hmul_rn": Op.MUL, "__hfma": Op.FMA, "__hneg": Op.NEG, "__habs": Op.ABS, "__hmax": Op.FMAX,
             "__hmin": Op.FMIN, "__hgt": Op.GT, "__hlt": Op.LT, "__hge": Op.GE, "__hle": Op.LE, "__heq": Op.EQ,
             "__hne": Op.NE, "__hisnan": Op.ISNAN, "operator+": Op.ADD, "operator-": Op.SUB, "operator*": Op.MUL,
             "operator<": Op.LT, "operator>": Op.GT, "operator<=": Op.LE, "operator>=": Op.GE, "operator==": Op.EQ,
             "operator!=": Op.NE}
HALF_OPAQUE = frozenset({"__hdiv", "operator/"})
STUB_INCLUDE = "/workbench_floats/include"
FLAGS = ("-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "--cuda-path=/nonexistent", "-std=c++17",
         "-nostdinc", "-nostdinc++", "-I" + STUB_INCLUDE, "-include", STUB_NAME)

# Calls refused by name: what they do is outside a one-thread-per-element model.
REFUSED_CALLS = {
    "atomicAdd": "atomic", "atomicExch": "atomic", "atomicMax": "atomic", "atomicCAS": "atomic",
    "atomicMin": "atomic", "atomicSub": "atomic",
    "__shfl_sync": "warp shuffle", "__shfl_down_sync": "warp shuffle", "__shfl_xor_sync": "warp shuffle",
    "__shfl_up_sync": "warp shuffle", "__any_sync": "warp vote", "__all_sync": "warp vote",
    "__ballot_sync": "warp vote", "__syncthreads": "barrier", "__syncwarp": "barrier",
    "__threadfence": "memory fence", "printf": "printf", "cudaConfigureCall": "kernel launch",
}
# Transcendentals and approximate intrinsics: accepted, named, never evaluated (their bits depend on the
# device's libdevice/SFU implementation). CUDA C Programming Guide, "Mathematical Functions": rsqrtf has a
# maximum error of 2 ulp, __fdividef 2 ulp in its range (and 0 for |y| > 2**126), __expf/__logf are SFU
# approximations.
TRANSCENDENTAL = frozenset({
    "expf", "exp2f", "__expf", "logf", "log1pf", "log2f", "__logf", "tanhf", "erff", "erfcf", "sinf", "cosf",
    "powf", "__powf", "rsqrtf", "expm1f", "cbrtf", "__fdividef", "exp", "tanh",
    "__fadd_rz",
})
# name -> (op, type). CUDA Math API: the __f*_rn intrinsics are IEEE round-to-nearest operations that the
# compiler never merges into an fma ("__fmul_rn ... will never be merged into a floating-point
# multiply-add"; the same note is given for __fadd_rn and __fsub_rn); __frcp_rn is 1/x and __frsqrt_rn
# 1/sqrt(x) rounded once; __fsqrt_rn is sqrt.rn.
MATH = {
    "fmaxf": (Op.FMAX, Ty.F32), "fminf": (Op.FMIN, Ty.F32), "fabsf": (Op.ABS, Ty.F32),
    "copysignf": (Op.COPYSIGN, Ty.F32), "sqrtf": (Op.SQRT, Ty.F32), "fmaf": (Op.FMA, Ty.F32),
    "__fmaf_rn": (Op.FMA, Ty.F32), "__fadd_rn": (Op.ADD, Ty.F32), "__fsub_rn": (Op.SUB, Ty.F32),
    "__fdiv_rn": (Op.DIV, Ty.F32), "__fsqrt_rn": (Op.SQRT, Ty.F32), "__fmul_rn": (Op.MUL, Ty.F32),
    "fmax": (Op.FMAX, Ty.F64), "fmin": (Op.FMIN, Ty.F64), "fabs": (Op.ABS, Ty.F64),
}
NEVER_CONTRACTED = frozenset({"__fadd_rn", "__fsub_rn", "__fmul_rn"})
BUILTINS = ("threadIdx", "blockIdx", "blockDim", "gridDim")
