/* A small command-line program to gate: counts the primes below N with a sieve
 * of Eratosthenes. Run as `./sieve N`; prints the count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000UL;
  unsigned char *composite = calloc(n + 1, 1);
  if (!composite) return 2;
  unsigned long count = 0;
  for (unsigned long i = 2; i <= n; i++) {
    if (composite[i]) continue;
    count++;
    for (unsigned long j = i * i; j <= n; j += i) composite[j] = 1;
  }
  printf("%lu\n", count);
  free(composite);
  return 0;
}
