#![feature(test)]
extern crate test;
use test::{black_box, Bencher};

#[bench]
fn fib_10(b: &mut Bencher) { b.iter(|| libtest_bench::fib(black_box(10))); }

#[bench]
fn copy_4k(b: &mut Bencher) {
    let src = vec![7u8; 4096];
    b.bytes = 4096;
    b.iter(|| black_box(src.clone()));
}

#[bench]
fn panics(b: &mut Bencher) { b.iter(|| black_box(1)); panic!("boom"); }
