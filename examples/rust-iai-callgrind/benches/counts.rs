//! iai-callgrind benchmarks: each runs once under valgrind's callgrind, which
//! counts its instructions and simulated cache hits. `setup` builds the input
//! outside the counted region.
use iai_callgrind::{library_benchmark, library_benchmark_group, main};
use perf_gate_example_iai_callgrind::{make_input, sum_bytes};
use std::hint::black_box;

#[library_benchmark]
#[bench::short(args = (100), setup = make_input)]
#[bench::long(args = (10_000), setup = make_input)]
fn sum(input: String) -> u64 {
    black_box(sum_bytes(black_box(&input)))
}

library_benchmark_group!(name = sums; benchmarks = sum);
main!(library_benchmark_groups = sums);
