// The iai adapter test's bench target: iai runs each function under cachegrind
// and prints its instruction and cache counts. Two loop lengths, so the test can
// check that 1000 more iterations cost a few instructions each.
use iai::black_box;

fn sum(n: u64) -> u64 {
    (0..n).fold(0, |a, b| a.wrapping_add(black_box(b)))
}

fn iai_sum_1000() -> u64 {
    sum(black_box(1000))
}

fn iai_sum_2000() -> u64 {
    sum(black_box(2000))
}

iai::main!(iai_sum_1000, iai_sum_2000);
