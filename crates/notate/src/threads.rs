//! Reading threads kept between runs.
//!
//! A [`crate::format::ChunkMap`] runs its workers on threads of its own. A program that reads
//! many small inputs one after another (Python's `read_pgn` in a loop, a server converting
//! request after request) started two new threads for each, and each new thread's allocator
//! heap took fresh memory that the kernel zeroed page by page: a tenth of the time of reading
//! a 1 MB file from Python. Here a thread that has finished its job waits a while for the
//! next one, with its stack and its heap still warm.
//!
//! Written by hand because the well-kept pools run short tasks on a fixed number of threads
//! (rayon, threadpool): a reading worker blocks for the whole run (on its chunks' tickets and
//! on the consumer), so two runs at once would wait for each other on a fixed pool. Here a job
//! always gets a thread at once: an idle one, or a new one.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// A job for a thread.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// How long a thread without a job waits for one before it ends.
const IDLE_FOR: Duration = Duration::from_secs(5);

/// The threads waiting for a job: each one's number and the sender of its job channel.
static IDLE: Mutex<Vec<(u64, Sender<Job>)>> = Mutex::new(Vec::new());

/// The process whose threads wait in [`IDLE`] (0: none yet).
static OWNER: AtomicU32 = AtomicU32::new(0);

fn idle() -> MutexGuard<'static, Vec<(u64, Sender<Job>)>> {
    // The list is consistent at every step, so a panic elsewhere while it was held changes
    // nothing.
    IDLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `job` on a thread that waits for jobs (the last one to finish), or on a new thread.
pub(crate) fn spawn(job: impl FnOnce() + Send + 'static) {
    let process = std::process::id();
    let owner = match OWNER.compare_exchange(0, process, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => process,
        Err(owner) => owner,
    };
    if owner != process {
        // A child made by `fork` (Python's multiprocessing) has the list but not the threads,
        // and maybe the list's lock held by a thread it does not have: it keeps no threads.
        std::thread::spawn(job);
        return;
    }
    let mut job: Job = Box::new(job);
    while let Some((_, thread)) = idle().pop() {
        match thread.send(job) {
            Ok(()) => return,
            // Cannot happen while the thread is listed (it takes itself off the list before it
            // ends), but a job is never lost: it goes to the next thread.
            Err(returned) => job = returned.0,
        }
    }
    start(job);
}

fn start(first: Job) {
    static THREADS: AtomicU64 = AtomicU64::new(0);
    let number = THREADS.fetch_add(1, Ordering::Relaxed);
    let (sender, jobs) = channel::<Job>();
    std::thread::Builder::new()
        .name(format!("notate-{number}"))
        .spawn(move || {
            let mut job = first;
            loop {
                job();
                idle().push((number, sender.clone()));
                // (The thread keeps a sender of its own channel, so it is never disconnected:
                // those arms only end the thread.)
                job = match jobs.recv_timeout(IDLE_FOR) {
                    Ok(next) => next,
                    Err(RecvTimeoutError::Timeout) if take_off_list(number) => return,
                    // Taken off the list by `spawn` just now: its job is on the way.
                    Err(RecvTimeoutError::Timeout) => match jobs.recv() {
                        Ok(next) => next,
                        Err(_) => return,
                    },
                    Err(RecvTimeoutError::Disconnected) => return,
                };
            }
        })
        .expect("the system refused to start a thread");
}

/// Takes thread `number` off the list of idle threads; whether it was on it.
fn take_off_list(number: u64) -> bool {
    let mut list = idle();
    match list.iter().position(|(n, _)| *n == number) {
        Some(at) => {
            list.swap_remove(at);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    // The only test of this crate's units that starts threads: another one would share the
    // list of idle threads, and the last assertion could see its threads.
    #[test]
    fn jobs_run_at_once_and_threads_are_used_again() {
        // Two jobs that wait for each other: each must have a thread of its own at once.
        let (a_tx, a_rx) = channel();
        let (b_tx, b_rx) = channel();
        let (done_tx, done_rx) = channel();
        let done = done_tx.clone();
        spawn(move || {
            a_tx.send(()).unwrap();
            b_rx.recv().unwrap();
            done.send(std::thread::current().name().map(str::to_string))
                .unwrap();
        });
        let done = done_tx.clone();
        spawn(move || {
            a_rx.recv().unwrap();
            b_tx.send(()).unwrap();
            done.send(std::thread::current().name().map(str::to_string))
                .unwrap();
        });
        let first: Vec<_> = done_rx.iter().take(2).collect();
        assert_ne!(first[0], first[1]);
        // Both are back on the list once their jobs end; a new job goes to one of them.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while idle().len() < 2 {
            assert!(
                std::time::Instant::now() < deadline,
                "the threads never came back"
            );
            std::thread::yield_now();
        }
        let done = done_tx.clone();
        spawn(move || {
            done.send(std::thread::current().name().map(str::to_string))
                .unwrap()
        });
        let again = done_rx.recv().unwrap();
        assert!(first.contains(&again), "{again:?} is not one of {first:?}");
    }
}
