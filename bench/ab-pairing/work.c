/*
 * Workload of the A/B pairing measurement: times a CPU-bound loop of
 * ITERATIONS steps once and prints a perf-gate ResultSet with its wall-clock
 * time (`time`) and its CPU time (`cpu_time`, CLOCK_PROCESS_CPUTIME_ID: what
 * the process itself used, so it is far less disturbed by other jobs sharing
 * the cores). Each fresh process contributes exactly one sample of each.
 *
 *   work ITERATIONS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: work ITERATIONS\n");
    return 2;
  }
  uint64_t n = strtoull(argv[1], NULL, 10);
  struct timespec a, b, ca, cb;
  clock_gettime(CLOCK_MONOTONIC, &a);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
  volatile uint64_t x = 1;
  for (uint64_t i = 0; i < n; i++) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double t = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
  double c = (double)(cb.tv_sec - ca.tv_sec) + (double)(cb.tv_nsec - ca.tv_nsec) * 1e-9;
  printf("{\"schema\":\"perf-gate/results@1\",\"created\":\"1970-01-01T00:00:00Z\",\"benchmarks\":"
         "[{\"id\":\"loop\",\"status\":\"ok\",\"metrics\":{\"time\":{\"unit\":\"s\",\"direction\":\"lower\",\"samples\":[%.9f]},"
         "\"cpu_time\":{\"unit\":\"s\",\"direction\":\"lower\",\"samples\":[%.9f]}}}]}\n", t, c);
  return (int)(x & 0);
}
