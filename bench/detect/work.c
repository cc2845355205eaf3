/*
 * perf-gate detection benchmark workload: a CPU-bound loop whose amount of work
 * is set on the command line, so that "B is p % slower than A" is exact by
 * construction (p % more iterations of the same loop).
 *
 *   work ITERATIONS PERCENT   run ITERATIONS * (1 + PERCENT/100) iterations
 *   work --spin SECONDS       busy-loop for at most SECONDS (background load)
 *
 * The loop is a serial dependency chain (a 64-bit LCG step and an xorshift),
 * so the compiler can neither vectorise nor remove it; the result is printed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t churn(uint64_t x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    x ^= x >> 29;
  }
  return x;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--spin") == 0) {
    double limit = strtod(argv[2], NULL);
    if (!(limit > 0 && limit <= 3600)) {
      fprintf(stderr, "work: --spin expects 0 < SECONDS <= 3600\n");
      return 2;
    }
    double end = now_seconds() + limit;
    uint64_t x = 1;
    while (now_seconds() < end) x = churn(x, 100000);
    printf("%llu\n", (unsigned long long)x);
    return 0;
  }
  if (argc != 3) {
    fprintf(stderr, "usage: work ITERATIONS PERCENT | work --spin SECONDS\n");
    return 2;
  }
  double base = strtod(argv[1], NULL);
  double percent = strtod(argv[2], NULL);
  if (!(base >= 1 && base <= 1e12) || !(percent >= 0 && percent <= 1000)) {
    fprintf(stderr, "work: ITERATIONS in [1, 1e12], PERCENT in [0, 1000]\n");
    return 2;
  }
  uint64_t n = (uint64_t)(base * (1.0 + percent / 100.0) + 0.5);
  printf("%llu\n", (unsigned long long)churn(88172645463325252ULL, n));
  return 0;
}
