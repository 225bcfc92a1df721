//! A small thread pool that runs numbered jobs in parallel and hands their
//! results back in order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work(state, i)` for every `i` in `0..n` on `jobs` threads (at least
/// one, at most `n`). Each thread keeps one `S` (starting from its default)
/// across the jobs it takes, e.g. a runner worth reusing.
///
/// `on_result` gets each result on the calling thread in index order, as
/// soon as it and all earlier ones are done; returning `false` stops the run
/// (jobs already started still finish, but are not reported).
pub fn run_in_order<S, R, W, F>(n: usize, jobs: usize, work: W, mut on_result: F)
where
    S: Default,
    R: Send,
    W: Fn(&mut S, usize) -> R + Sync,
    F: FnMut(usize, R) -> bool,
{
    let jobs = jobs.clamp(1, n.max(1));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, stop, work) = (&next, &stop, &work);
            s.spawn(move || {
                let mut state = S::default();
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    if tx.send((i, work(&mut state, i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut want = 0;
        'recv: for (i, r) in rx.iter() {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&want) {
                want += 1;
                if !on_result(want - 1, r) {
                    stop.store(true, Ordering::Relaxed);
                    break 'recv;
                }
            }
        }
        // Dropping the receiver here makes the workers' sends fail.
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_arrive_in_order() {
        let mut seen = Vec::new();
        // Later jobs finish first: the order must still be by index.
        run_in_order(
            20,
            4,
            |calls: &mut usize, i| {
                *calls += 1;
                std::thread::sleep(std::time::Duration::from_millis((20 - i as u64) / 4));
                i * i
            },
            |i, r| {
                seen.push((i, r));
                true
            },
        );
        let want: Vec<(usize, usize)> = (0..20).map(|i| (i, i * i)).collect();
        assert_eq!(seen, want);
    }

    #[test]
    fn returning_false_stops_the_run() {
        let mut seen = Vec::new();
        run_in_order(
            1000,
            2,
            |_: &mut (), i| i,
            |i, _| {
                seen.push(i);
                i < 4
            },
        );
        assert_eq!(seen, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn no_jobs_no_results() {
        let mut called = false;
        run_in_order(
            0,
            8,
            |_: &mut (), i| i,
            |_, _| {
                called = true;
                true
            },
        );
        assert!(!called);
    }
}
