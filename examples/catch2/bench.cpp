// Catch2 v2 benchmarks for the perf-gate example: two ways to join words
// with commas. The Debian/Ubuntu package `catch2` provides the single header.
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

static std::vector<std::string> words(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("word" + std::to_string(i));
  return out;
}

static std::string join_append(const std::vector<std::string>& ws) {
  std::string s;
  for (const auto& w : ws) {
    if (!s.empty()) s += ',';
    s += w;
  }
  return s;
}

static std::string join_stream(const std::vector<std::string>& ws) {
  std::ostringstream out;
  for (std::size_t i = 0; i < ws.size(); ++i) out << (i ? "," : "") << ws[i];
  return out.str();
}

TEST_CASE("join") {
  const auto ws = words(100);
  REQUIRE(join_append(ws) == join_stream(ws));
  BENCHMARK("append 100 words") { return join_append(ws); };
  BENCHMARK("ostringstream 100 words") { return join_stream(ws); };
}
