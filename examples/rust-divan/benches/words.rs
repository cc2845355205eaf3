//! divan benchmarks of the example crate: plain functions, an argument sweep
//! (`args`), and a generic one (`types`), so the console tree has every kind of
//! row perf-gate reads.
use divan::{black_box, counter::BytesCount, AllocProfiler};
use perf_gate_example_divan::{count_words, count_words_bytes, sum_numbers, words};

// Counts each benchmark's allocations: divan prints them under its timings.
#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

fn text(words: usize) -> String {
    (0..words).map(|i| (i % 97).to_string()).collect::<Vec<_>>().join(" ")
}

#[divan::bench]
fn split_whitespace(bencher: divan::Bencher) {
    let t = text(1000);
    bencher.bench(|| count_words(black_box(&t)));
}

#[divan::bench(args = [10, 1000])]
fn bytes(bencher: divan::Bencher, words: usize) {
    let t = text(words);
    bencher.counter(BytesCount::of_str(&t)).bench(|| count_words_bytes(black_box(&t)));
}

#[divan::bench(types = [u32, u64])]
fn sum<T: std::str::FromStr + Default + std::ops::Add<Output = T>>(bencher: divan::Bencher) {
    let t = text(200);
    bencher.bench(|| sum_numbers::<T>(black_box(&t)));
}

#[divan::bench]
fn collect(bencher: divan::Bencher) {
    let t = text(100);
    bencher.bench(|| words(black_box(&t)));
}
