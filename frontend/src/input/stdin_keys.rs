//! A headless run's stdin, typed on the keyboard. It is read on its own
//! thread so that a pipe which stays open (a CI runner, `ssh` without `-n`)
//! never blocks the emulation: what has arrived is handed over between
//! frames, and the run's time limit holds whatever stdin does.

use std::io::Read;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// How long (host time, before the first instruction) the run waits for
/// stdin to end, so that text piped in at once (`echo y | tandem run`) is
/// all queued before the program starts, as it was when stdin was read to
/// its end: such runs stay deterministic.
const START_GRACE: Duration = Duration::from_millis(250);

/// Bytes read from stdin on a thread.
pub struct StdinKeys {
    rx: Receiver<Vec<u8>>,
    closed: bool,
}

impl StdinKeys {
    /// Starts reading stdin on a thread (which ends with stdin; a thread
    /// still blocked in a read does not keep the process alive).
    pub fn start() -> StdinKeys {
        Self::from_reader(std::io::stdin())
    }

    /// Starts reading `r` on a thread.
    pub fn from_reader(mut r: impl Read + Send + 'static) -> StdinKeys {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match r.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        StdinKeys { rx, closed: false }
    }

    /// What arrives before stdin ends or [`START_GRACE`] passes.
    pub fn at_start(&mut self) -> Vec<u8> {
        let deadline = Instant::now() + START_GRACE;
        let mut text = Vec::new();
        while !self.closed {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(chunk) => text.extend(chunk),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => self.closed = true,
            }
        }
        text
    }

    /// What has arrived since the last call, without waiting.
    pub fn poll(&mut self) -> Vec<u8> {
        let mut text = Vec::new();
        while !self.closed {
            match self.rx.try_recv() {
                Ok(chunk) => text.extend(chunk),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => self.closed = true,
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that never ends (a pipe whose writer stays open).
    struct Open;
    impl Read for Open {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            std::thread::sleep(Duration::from_secs(3600));
            Ok(0)
        }
    }

    #[test]
    fn an_open_reader_never_blocks() {
        let mut k = StdinKeys::from_reader(Open);
        let t = Instant::now();
        assert!(k.at_start().is_empty());
        assert!(k.poll().is_empty());
        assert!(t.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn text_that_ends_is_all_there_at_start() {
        let mut k = StdinKeys::from_reader(&b"typed\n"[..]);
        assert_eq!(k.at_start(), b"typed\n");
        assert!(k.poll().is_empty());
    }
}
