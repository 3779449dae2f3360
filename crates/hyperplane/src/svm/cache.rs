//! The kernel column cache: the least recently used columns of `Q` within a memory
//! budget (`cache_mb`), never the `n x n` matrix.
//!
//! Columns are kept in `f32` by default (half the memory; LIBSVM keeps `float` too; the
//! hard-margin SVM keeps `f64`, see [`Entry`]) and indexed by
//! position in the solver's working order. A column may hold only its first `len` entries
//! (the active positions when it was computed); asking for more extends it. When the
//! solver swaps two positions (shrinking), every cached column swaps the two entries, or
//! is dropped when it holds only one of them.

/// The type of a cached entry of `Q`.
pub(crate) trait Entry: Copy + Default + Into<f64> + Send + Sync {
    /// The value, rounded to this type.
    fn from_f64(v: f64) -> Self;
}

impl Entry for f32 {
    fn from_f64(v: f64) -> Self {
        v as f32
    }
}

impl Entry for f64 {
    fn from_f64(v: f64) -> Self {
        v
    }
}

/// A least-recently-used cache of `Q`'s columns.
pub(crate) struct ColumnCache<T> {
    /// The column at each position (empty: not cached).
    columns: Vec<Vec<T>>,
    /// When each position's column was last used.
    used: Vec<u64>,
    /// The positions whose columns are cached.
    cached: Vec<usize>,
    /// Where each position is in `cached` (`usize::MAX`: not cached).
    slot: Vec<usize>,
    /// Entries that may still be stored.
    free: usize,
    clock: u64,
}

impl<T: Entry> ColumnCache<T> {
    /// A cache of `n` columns of up to `n` entries within `bytes` (at least two full
    /// columns, which one step of the solver needs at once).
    pub fn new(n: usize, bytes: usize) -> Self {
        let entries = bytes / std::mem::size_of::<T>();
        ColumnCache {
            columns: vec![Vec::new(); n],
            used: vec![0; n],
            cached: Vec::new(),
            slot: vec![usize::MAX; n],
            free: entries.max(2 * n),
            clock: 0,
        }
    }

    /// The first `len` entries of column `i`; `fill(start, tail)` computes entries
    /// `start..len` when the cache holds fewer.
    pub fn get(&mut self, i: usize, len: usize, fill: impl FnOnce(usize, &mut [T])) -> &[T] {
        self.clock += 1;
        self.used[i] = self.clock;
        let have = self.columns[i].len();
        if have < len {
            let more = len - have;
            while self.free < more {
                self.evict_except(i);
            }
            self.free -= more;
            if have == 0 {
                self.slot[i] = self.cached.len();
                self.cached.push(i);
            }
            let column = &mut self.columns[i];
            column.resize(len, T::default());
            fill(have, &mut column[have..]);
        }
        &self.columns[i][..len]
    }

    /// Column `i` as cached (its first `len` entries, which the caller has just had
    /// [`ColumnCache::get`] fill).
    pub fn peek(&self, i: usize, len: usize) -> &[T] {
        &self.columns[i][..len]
    }

    /// Drops the least recently used column other than `keep`.
    fn evict_except(&mut self, keep: usize) {
        let victim = self
            .cached
            .iter()
            .copied()
            .filter(|&p| p != keep)
            .min_by_key(|&p| self.used[p])
            .expect("the budget holds two full columns");
        self.drop_column(victim);
    }

    fn drop_column(&mut self, p: usize) {
        self.free += self.columns[p].len();
        self.columns[p] = Vec::new();
        let s = self.slot[p];
        self.cached.swap_remove(s);
        if let Some(&moved) = self.cached.get(s) {
            self.slot[moved] = s;
        }
        self.slot[p] = usize::MAX;
    }

    /// Swaps positions `i` and `j`: their columns, and their entries in every column.
    pub fn swap(&mut self, i: usize, j: usize) {
        if i == j {
            return;
        }
        self.columns.swap(i, j);
        self.used.swap(i, j);
        self.slot.swap(i, j);
        for p in [i, j] {
            if self.slot[p] != usize::MAX {
                self.cached[self.slot[p]] = p;
            }
        }
        let (lo, hi) = (i.min(j), i.max(j));
        let mut k = 0;
        while k < self.cached.len() {
            let p = self.cached[k];
            let column = &mut self.columns[p];
            if column.len() > hi {
                column.swap(lo, hi);
            } else if column.len() > lo {
                // holds `lo` but not `hi`: its entry at `lo` would be wrong
                self.drop_column(p);
                continue; // `cached[k]` is now another column
            }
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cache of columns `q(i, j) = 100 i + j` under positions `perm`.
    fn column_of(perm: &[usize], i: usize) -> impl Fn(usize, &mut [f32]) + '_ {
        move |start, out| {
            for (k, o) in out.iter_mut().enumerate() {
                *o = (100 * perm[i] + perm[start + k]) as f32;
            }
        }
    }

    #[test]
    fn columns_are_computed_once_extended_and_evicted_least_recent_first() {
        let perm: Vec<usize> = (0..5).collect();
        // room for 12 entries: two full columns and a bit
        let mut cache = ColumnCache::<f32>::new(5, 12 * 4);
        let calls = std::cell::Cell::new(0);
        let get = |cache: &mut ColumnCache<f32>, i: usize, len: usize| {
            cache
                .get(i, len, |s, o| {
                    calls.set(calls.get() + 1);
                    column_of(&perm, i)(s, o)
                })
                .to_vec()
        };
        assert_eq!(get(&mut cache, 1, 3), [100.0, 101.0, 102.0]);
        assert_eq!(get(&mut cache, 1, 3), [100.0, 101.0, 102.0]);
        assert_eq!(calls.get(), 1);
        assert_eq!(get(&mut cache, 1, 5), [100.0, 101.0, 102.0, 103.0, 104.0]);
        assert_eq!(calls.get(), 2);
        get(&mut cache, 2, 5);
        get(&mut cache, 1, 5); // 1 is now more recent than 2
        get(&mut cache, 3, 2); // 12 entries: 5 + 5 + 2 fit
        assert_eq!(calls.get(), 4);
        get(&mut cache, 4, 5); // evicts 2, the least recently used
        assert!(cache.columns[2].is_empty() && !cache.columns[1].is_empty());
        assert_eq!(get(&mut cache, 1, 5)[4], 104.0);
        assert_eq!(calls.get(), 5);
    }

    #[test]
    fn swapping_positions_keeps_every_cached_entry_right() {
        let mut perm: Vec<usize> = (0..6).collect();
        let mut cache = ColumnCache::<f32>::new(6, 1 << 20);
        for (i, len) in [(0, 6), (1, 2), (4, 6), (5, 4)] {
            cache.get(i, len, column_of(&perm, i));
        }
        cache.swap(1, 4);
        perm.swap(1, 4);
        // columns that held position 1 but not 4 are dropped (5 held 0..4; 1 held 0..2
        // and now sits at 4)
        assert!(cache.columns[5].is_empty() && cache.columns[4].is_empty());
        for (i, len) in [(0, 6), (1, 6), (4, 2), (5, 6), (2, 6)] {
            let got = cache.get(i, len, column_of(&perm, i)).to_vec();
            let mut want = vec![0.0; len];
            column_of(&perm, i)(0, &mut want);
            assert_eq!(got, want, "column {i}");
        }
    }
}
