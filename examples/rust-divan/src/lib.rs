//! A tiny crate to benchmark with divan: count the words of a text, two ways.

/// Counts whitespace-separated words.
pub fn count_words(text: &str) -> usize {
    text.split_whitespace().count()
}

/// Counts words by scanning bytes for word starts: no allocation, one pass.
pub fn count_words_bytes(text: &str) -> usize {
    let mut count = 0;
    let mut in_word = false;
    for b in text.bytes() {
        let space = b.is_ascii_whitespace();
        if !space && !in_word {
            count += 1;
        }
        in_word = !space;
    }
    count
}

/// Sums numbers written as text, one per word; a word that is no number counts 0.
pub fn sum_numbers<T: std::str::FromStr + Default + std::ops::Add<Output = T>>(text: &str) -> T {
    text.split_whitespace().map(|w| w.parse().unwrap_or_default()).fold(T::default(), |a, b| a + b)
}

/// The words of a text, collected: allocates one vector per call.
pub fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}
