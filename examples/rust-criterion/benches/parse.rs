//! Criterion benchmarks: a parameterised group with byte throughput, and a plain function.
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use perf_gate_example_criterion::{make_input, sum_bytes, sum_split};

fn sums(c: &mut Criterion) {
    let mut group = c.benchmark_group("sum");
    for n in [100usize, 1000] {
        let input = make_input(n);
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_with_input(BenchmarkId::new("split", n), &input, |b, s| b.iter(|| sum_split(black_box(s))));
        group.bench_with_input(BenchmarkId::new("bytes", n), &input, |b, s| b.iter(|| sum_bytes(black_box(s))));
    }
    group.finish();
}

fn make(c: &mut Criterion) {
    c.bench_function("make_input_100", |b| b.iter(|| make_input(black_box(100))));
}

criterion_group!(benches, sums, make);
criterion_main!(benches);
