// A small Catch2 v2 benchmark program for the catch2 adapter's tests: two
// test cases with benchmarks of clearly different cost, a long name (the
// console reporter wraps it onto its own line), and a benchmark that throws
// (Catch2 prints "Benchmark failed"), and a test case whose REQUIRE fails
// after one benchmark, so the benchmark after it never runs. The last test
// case's name holds every character a Catch2 test spec treats as syntax.
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>

#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

static std::uint64_t fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

TEST_CASE("Fibonacci") {
  CHECK(fib(10) == 55);
  BENCHMARK("fib 10") { return fib(10); };
  BENCHMARK("fib 20") { return fib(20); };
}

TEST_CASE("Containers") {
  BENCHMARK("vector sum of 1000 ints, built fresh each time so the name is long enough to wrap") {
    std::vector<int> v(1000);
    std::iota(v.begin(), v.end(), 0);
    return std::accumulate(v.begin(), v.end(), 0L);
  };
  BENCHMARK_ADVANCED("string append 100")(Catch::Benchmark::Chronometer meter) {
    meter.measure([] {
      std::string s;
      for (int i = 0; i < 100; ++i) s += 'x';
      return s.size();
    });
  };
}

TEST_CASE("Broken") {
  BENCHMARK("throws") {
    throw std::runtime_error("resource unavailable");
    return 0;
  };
}

TEST_CASE("Validated") {
  BENCHMARK("checked fib 5") { return fib(5); };
  REQUIRE(fib(5) == 6);
  BENCHMARK("never reached") { return fib(5); };
}

TEST_CASE("Sums, [not a tag] *2 ~\"q\" \\ end") {
  BENCHMARK("sum 100") {
    int s = 0;
    for (int i = 0; i < 100; ++i) s += i;
    return s;
  };
}
