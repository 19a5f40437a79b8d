//! A cache keyed by unrolled expressions, whose keys are hashed once.
//!
//! The encoder's caches are keyed by whole expression trees. A map of such
//! keys hashes each key again whenever it grows, clones the key to look it
//! up under another polarity, and with std's SipHash spent a quarter of the
//! time of a small puzzle (a hebi sample: 89 of 343 million instructions)
//! in hashing. Here the caller hashes a key once ([`hash_of`]), the table
//! keeps that hash beside the entry, and a lookup compares whole keys only
//! for entries of the same hash.

use std::hash::{BuildHasher, Hash};

use rustc_hash::{FxBuildHasher, FxHashMap};

/// The hash a [`Memo`] files `key` under.
pub(crate) fn hash_of<K: Hash + ?Sized>(key: &K) -> u64 {
    FxBuildHasher.hash_one(key)
}

/// Values by key, each key hashed once by the caller.
#[derive(Clone, Debug)]
pub(crate) struct Memo<K, V> {
    /// The last entry filed under each hash.
    last: FxHashMap<u64, usize>,
    /// Every entry, with the entry filed before it under the same hash.
    entries: Vec<(K, V, Option<usize>)>,
}

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo { last: FxHashMap::default(), entries: Vec::new() }
    }
}

impl<K, V> Memo<K, V> {
    /// The value of the key filed under `hash` that `is_key` accepts.
    pub(crate) fn find(&self, hash: u64, is_key: impl Fn(&K) -> bool) -> Option<&V> {
        let mut at = self.last.get(&hash).copied();
        while let Some(k) = at {
            let (key, value, before) = &self.entries[k];
            if is_key(key) {
                return Some(value);
            }
            at = *before;
        }
        None
    }

    /// Files `value` under `key`, whose hash is `hash` ([`hash_of`]); the
    /// caller has found no value for the key.
    pub(crate) fn insert(&mut self, hash: u64, key: K, value: V) {
        let before = self.last.insert(hash, self.entries.len());
        self.entries.push((key, value, before));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_one_hash_are_told_apart() {
        let mut memo: Memo<String, usize> = Memo::default();
        // Two keys filed under one hash, as a collision would file them.
        memo.insert(7, "a".to_string(), 1);
        memo.insert(7, "b".to_string(), 2);
        memo.insert(hash_of("c"), "c".to_string(), 3);
        assert_eq!(memo.find(7, |k| k == "a"), Some(&1));
        assert_eq!(memo.find(7, |k| k == "b"), Some(&2));
        assert_eq!(memo.find(7, |k| k == "c"), None);
        assert_eq!(memo.find(hash_of("c"), |k| k == "c"), Some(&3));
        assert_eq!(memo.find(8, |_| true), None);
    }
}
