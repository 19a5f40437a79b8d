//! A small seeded pseudo-random generator for the puzzle generators, so a
//! generated room, maze or grid depends on its seed alone, on every platform,
//! without a dependency.

/// SplitMix64 (Steele, Lea and Flood 2014): fast, and every seed, 0
/// included, gives a good stream.
///
/// ```
/// use somaria::rng::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n`, which must be positive.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles `items` in place (Fisher–Yates, from the back), so that the
    /// order depends on the seed alone.
    ///
    /// ```
    /// use somaria::rng::SplitMix64;
    /// let mut items: Vec<u32> = (0..10).collect();
    /// SplitMix64::new(3).shuffle(&mut items);
    /// let mut sorted = items.clone();
    /// sorted.sort();
    /// assert_eq!(sorted, (0..10).collect::<Vec<_>>());
    /// ```
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// One of `items`, which must not be empty.
    ///
    /// ```
    /// use somaria::rng::SplitMix64;
    /// assert!([2, 3, 5].contains(&SplitMix64::new(1).choose(&[2, 3, 5])));
    /// ```
    pub fn choose<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}
