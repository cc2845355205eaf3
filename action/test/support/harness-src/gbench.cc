// Google Benchmark program behind the gbench fixtures and the live test.
// Build: g++ -O2 -std=c++17 bm.cc -lbenchmark -lpthread -o bm
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

static void BM_Copy(benchmark::State& state) {
  std::vector<char> src(state.range(0), 'x'), dst(state.range(0));
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * state.range(0));
  state.SetItemsProcessed(state.iterations());
  state.counters["hits"] = 42;
  state.counters["not_a_number"] = std::nan("");
  state.counters["infinite"] = std::numeric_limits<double>::infinity();
}
BENCHMARK(BM_Copy)->Arg(64)->Arg(4096);

static void BM_StringBuild(benchmark::State& state) {
  for (auto _ : state) {
    std::string s;
    for (int i = 0; i < 100; i++) s += std::to_string(i);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_StringBuild)->Unit(benchmark::kMicrosecond);

static void BM_Error(benchmark::State& state) {
  for (auto _ : state) {
    state.SkipWithError("resource unavailable");
    break;
  }
}
BENCHMARK(BM_Error);

BENCHMARK_MAIN();
