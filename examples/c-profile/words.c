/* A small program to profile: makes N pseudo-random words, counts each in a
 * hash table and prints the most frequent. Run as `./words N`.
 *
 * The functions are kept out of line (noinline) so a profile names each one;
 * in a real program, build the benchmark with -g (symbols) and
 * -fno-omit-frame-pointer (whole stacks under perf), and let the compiler
 * inline as it will: the profile then names the function it inlined into. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_SIZE 65536
#define WORD_MAX 16

struct entry {
  char word[WORD_MAX];
  unsigned count;
  int used;
};

static unsigned long long seed = 88172645463325252ULL;

/* One pseudo-random word of 3 to 6 letters from a four-letter alphabet
 * (xorshift64): at most 5,440 distinct words, so the table never fills. */
__attribute__((noinline)) void next_word(char *out) {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  int length = 3 + (int)(seed % 4);
  for (int i = 0; i < length; i++) out[i] = (char)('a' + (seed >> (8 + 2 * i)) % 4);
  out[length] = '\0';
}

/* FNV-1a over the word's bytes. */
__attribute__((noinline)) unsigned hash_word(const char *word) {
  unsigned h = 2166136261u;
  for (const char *p = word; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
  return h;
}

/* Counts the word, probing linearly from its hash. */
__attribute__((noinline)) void table_add(struct entry *table, const char *word) {
  unsigned at = hash_word(word) % TABLE_SIZE;
  while (table[at].used && strcmp(table[at].word, word) != 0) at = (at + 1) % TABLE_SIZE;
  if (!table[at].used) {
    table[at].used = 1;
    strcpy(table[at].word, word);
  }
  table[at].count++;
}

/* The most frequent word (ties: the first in table order). */
__attribute__((noinline)) const struct entry *top_word(const struct entry *table) {
  const struct entry *best = NULL;
  for (unsigned i = 0; i < TABLE_SIZE; i++)
    if (table[i].used && (!best || table[i].count > best->count)) best = &table[i];
  return best;
}

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000UL;
  struct entry *table = calloc(TABLE_SIZE, sizeof *table);
  if (!table) return 2;
  char word[WORD_MAX];
  for (unsigned long i = 0; i < n; i++) {
    next_word(word);
    table_add(table, word);
  }
  const struct entry *best = top_word(table);
  printf("%s %u\n", best ? best->word : "-", best ? best->count : 0);
  free(table);
  return 0;
}
