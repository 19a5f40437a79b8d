//! The memory a process holds, for the memory cap of [`super::Limits`]:
//! the bytes its Rust code has allocated and not freed, counted by
//! [`CountingAllocator`], and its resident memory as the operating system
//! reports it. The cap is compared with the larger of the two
//! ([`in_use`]).
//!
//! What each covers:
//!
//! - **The allocator count** ([`allocated`]) covers every allocation made
//!   through Rust's global allocator: somaria's engines, varisat, and every
//!   other Rust crate, counted at the moment of the allocation (before its
//!   pages are touched), so a single huge request is seen at once. A
//!   library cannot install a global allocator, so the count exists only
//!   when the binary installs [`CountingAllocator`] as its
//!   `#[global_allocator]` (the `somaria` binary does). It does not see
//!   C and C++ code, which allocates with `malloc` and `new` directly:
//!   CaDiCaL (the `cadical` backend) is invisible to it.
//! - **The resident memory** ([`resident`], `VmRSS` in `/proc/self/status`)
//!   covers everything the process holds in RAM: CaDiCaL's clauses too,
//!   the program's code, thread stacks, and memory an allocator keeps after
//!   it is freed. It is read on Linux (and Android) only; elsewhere it is
//!   not available, and there **CaDiCaL's memory is not counted** by the
//!   cap. Memory swapped out is not resident, so it is not counted either.
//!
//! Both are counts for the whole process: several runs at once (a server's
//! requests) each compare the whole process's memory with their cap. The
//! watchdog compares them with the cap about every 20 ms; nothing refuses
//! an allocation, so the memory a run holds can pass the cap by what it
//! allocates before it stops (see [`super`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes it has handed out and not
/// taken back. Install it in a binary to count the Rust heap:
///
/// ```
/// use somaria::limits::memory::{self, CountingAllocator};
///
/// #[global_allocator]
/// static ALLOCATOR: CountingAllocator = CountingAllocator;
///
/// fn main() {
///     let before = memory::allocated().unwrap();
///     let block = vec![1u8; 1 << 20];
///     assert!(memory::allocated().unwrap() >= before + (1 << 20));
///     assert!(memory::in_use() >= 1 << 20);
///     drop(block);
/// }
/// ```
pub struct CountingAllocator;

static IN_USE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; the
// counter only observes sizes.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on as it is.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            IN_USE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() {
            IN_USE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(block, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if !moved.is_null() {
            if new_size >= layout.size() {
                IN_USE.fetch_add(new_size - layout.size(), Ordering::Relaxed);
            } else {
                IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        moved
    }
}

/// The bytes allocated through [`CountingAllocator`] and not yet freed;
/// `None` when it is not the global allocator (nothing has been counted:
/// a running program always holds some heap).
pub fn allocated() -> Option<u64> {
    match IN_USE.load(Ordering::Relaxed) {
        0 => None,
        bytes => Some(bytes as u64),
    }
}

/// The process's resident memory in bytes, as the operating system reports
/// it; `None` where it cannot be read (other systems than Linux).
pub fn resident() -> Option<u64> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        // `VmRSS` is in kB whatever the page size, unlike `/proc/self/statm`,
        // which counts pages.
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kib: u64 = line["VmRSS:".len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
        Some(kib * 1024)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        None
    }
}

/// The memory the cap is compared with: the larger of [`allocated`] and
/// [`resident`] (0 when neither is known, so a cap is never reached).
pub fn in_use() -> u64 {
    allocated().unwrap_or(0).max(resident().unwrap_or(0))
}

/// The share of the machine's memory a run may use unless told otherwise.
const DEFAULT_SHARE: f64 = 0.5;

/// The cap when the machine's memory cannot be read.
const FALLBACK_CAP: u64 = 4 << 30;

/// The default cap: half of the memory this process may use (the smaller
/// of the machine's and its control group's limit).
pub fn default_cap() -> u64 {
    let machine = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    });
    let group = std::fs::read_to_string("/sys/fs/cgroup/memory.max").ok().and_then(|t| t.trim().parse::<u64>().ok());
    match (machine, group) {
        (Some(a), Some(b)) => (a.min(b) as f64 * DEFAULT_SHARE) as u64,
        (Some(a), None) | (None, Some(a)) => (a as f64 * DEFAULT_SHARE) as u64,
        (None, None) => FALLBACK_CAP,
    }
}

/// The smallest cap accepted: below it, loading a model could hit it.
pub const MIN_CAP: u64 = 16 << 20;

/// Parses a size such as `512M`, `2G`, `1.5GiB` or a plain number of bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let split = trimmed.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let scale: u64 = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        "T" | "TB" | "TIB" => 1 << 40,
        _ => return Err(format!("{text:?} has an unknown unit; expected a size such as 512M or 2G")),
    };
    let value: f64 = number.trim().parse().map_err(|_| format!("{text:?} is not a size; expected one such as 512M"))?;
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < MIN_CAP as f64 || bytes > (1u64 << 50) as f64 {
        return Err(format!("{text} is out of range; expected a size from 16M to 1024T"));
    }
    Ok(bytes as u64)
}

/// A size for messages, such as "512 MB" or "1.5 GB".
pub fn describe(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{} MB", bytes >> 20)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_units_and_refuse_nonsense() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("33554432"), Ok(32 << 20));
        for bad in ["", "1", "12Q", "-1G", "lots", "inf", "1e30G", "0"] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_default_cap_is_a_share_of_real_memory() {
        let cap = default_cap();
        assert!(cap >= MIN_CAP, "{cap}");
    }
}
