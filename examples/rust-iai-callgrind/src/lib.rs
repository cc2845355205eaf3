//! A tiny library for perf-gate's iai-callgrind example: sum a comma-separated
//! list of integers by scanning its bytes.

/// Sums the integers of a comma-separated list, scanning bytes (no allocation).
pub fn sum_bytes(input: &str) -> u64 {
    let mut total = 0u64;
    let mut current = 0u64;
    for &b in input.as_bytes() {
        if b.is_ascii_digit() {
            current = current * 10 + u64::from(b - b'0');
        } else if b == b',' {
            total += current;
            current = 0;
        }
    }
    total + current
}

/// A comma-separated list of the numbers 0..n.
pub fn make_input(n: usize) -> String {
    (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_the_list() {
        assert_eq!(sum_bytes(&make_input(100)), 4950);
    }
}
