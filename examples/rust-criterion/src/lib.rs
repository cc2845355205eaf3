//! A tiny library for perf-gate's criterion example: parse a comma-separated
//! list of integers and sum it, two ways.

/// Sums the integers of a comma-separated list, skipping anything that is not a number.
pub fn sum_split(input: &str) -> u64 {
    input.split(',').filter_map(|s| s.trim().parse::<u64>().ok()).sum()
}

/// The same sum, scanning bytes by hand (no allocation, no UTF-8 checks).
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
    fn both_ways_agree() {
        let s = make_input(100);
        assert_eq!(sum_split(&s), 4950);
        assert_eq!(sum_bytes(&s), 4950);
    }
}
