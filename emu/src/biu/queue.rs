//! The 8086's 6-byte instruction prefetch queue (Intel 8086 datasheet,
//! "Bus Interface Unit": "a 6-byte instruction stream queue"; the 8088 has
//! 4 bytes). The BIU appends fetched code at T3 of a code bus cycle; the EU
//! takes bytes one at a time from the front. A jump empties it (a flush).

/// Queue capacity of the 8086.
pub const QUEUE_SIZE: usize = 6;

/// Ring storage: a power of two at least [`QUEUE_SIZE`], so that indices
/// wrap with a mask.
const RING: usize = 8;

/// The prefetch queue: a small ring of bytes.
#[derive(Clone, Debug, Default)]
pub struct PrefetchQueue {
    bytes: [u8; RING],
    head: usize,
    len: usize,
}

impl PrefetchQueue {
    /// Bytes held.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Room for a word fetch: the 8086 starts a prefetch only when at least
    /// two bytes are free (datasheet: "whenever there are 2 or more bytes
    /// free in the queue"; the 8088 needs one).
    #[inline]
    pub fn has_room_for_fetch(&self) -> bool {
        self.len <= QUEUE_SIZE - 2
    }

    /// Appends a fetched byte (ignored when full, which the fetch policy
    /// prevents).
    #[inline]
    pub fn push(&mut self, b: u8) {
        if self.len < QUEUE_SIZE {
            self.bytes[(self.head + self.len) & (RING - 1)] = b;
            self.len += 1;
        }
    }

    /// Appends the two bytes of a word fetch, `lo` first (as two
    /// [`PrefetchQueue::push`]es: a byte that does not fit is dropped).
    #[inline(always)]
    pub fn push2(&mut self, lo: u8, hi: u8) {
        if self.len <= QUEUE_SIZE - 2 {
            self.bytes[(self.head + self.len) & (RING - 1)] = lo;
            self.bytes[(self.head + self.len + 1) & (RING - 1)] = hi;
            self.len += 2;
        } else {
            self.push(lo);
            self.push(hi);
        }
    }

    /// Takes the front byte.
    #[inline]
    pub fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let b = self.bytes[self.head];
        self.head = (self.head + 1) & (RING - 1);
        self.len -= 1;
        Some(b)
    }

    /// Empties the queue (a jump, or loading a test's initial queue).
    #[inline]
    pub fn flush(&mut self) {
        self.head = 0;
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_and_room() {
        let mut q = PrefetchQueue::default();
        assert!(q.has_room_for_fetch());
        for b in 0..5 {
            q.push(b);
        }
        assert!(!q.has_room_for_fetch());
        assert_eq!(q.pop(), Some(0));
        assert!(q.has_room_for_fetch());
        q.push(5);
        q.push(6);
        assert_eq!(q.len(), 6);
        q.push(7); // full: dropped
        let all: Vec<u8> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(all, vec![1, 2, 3, 4, 5, 6]);
        q.push(9);
        q.flush();
        assert!(q.is_empty());
    }
}
