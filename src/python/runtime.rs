//! How Rust work runs under Python: the one mechanism every binding uses.
//!
//! * [`cancellable`] (and [`cancellable_polling`], its general form) runs a
//!   job on a thread of its own ([`engine::run_on_thread`]: the thread of
//!   the call before, if that ended a moment ago) with a fresh [`Control`],
//!   while the calling thread, the GIL released, waits in short slices
//!   ([`POLL`]); between slices it checks for Ctrl-C (`KeyboardInterrupt`),
//!   the deadline (`TimeoutError`) and reports progress.  Any of these
//!   cancels the job and waits a bounded time ([`CANCEL_GRACE`]) for it to
//!   stop.  The job's error becomes a Python exception through the `From`
//!   impls of [`super::errors`].
//! * [`Stream`] is the shared body of the stream classes (tours, queens,
//!   peg solutions): the receiving end of a producer thread, read with the
//!   GIL released and Ctrl-C checked between short waits, and closed (its
//!   producer cancelled) on `close()` or when the Python object goes.

use super::options::RunOptions;
use crate::engine::{self, Control};
use pyo3::exceptions::{PyRuntimeError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often a waiting call wakes to check for Ctrl-C, timeouts and progress.
pub(crate) const POLL: Duration = Duration::from_millis(20);

/// How long a cancelled call waits for its search to stop.  Every search
/// polls its cancel flag (plans, frontier steps and the finder's
/// connectivity check included), so it stops within milliseconds; should
/// one not, the call returns after this bound anyway and the search thread
/// is left to end on its own (detached), its answer dropped.
const CANCEL_GRACE: Duration = Duration::from_secs(5);

/// Run `job(ctl)` on its own thread while this one, with the GIL released,
/// waits for it; Ctrl-C cancels the job and raises `KeyboardInterrupt`, the
/// run's `timeout` (seconds) raises `TimeoutError`, and between waits its
/// `progress(done, total)`, if given, hears the `Control`'s counters (an
/// exception from it cancels the job and is raised).
pub(crate) fn cancellable<R, E>(
    py: Python<'_>,
    run: &RunOptions,
    job: impl FnOnce(&Control) -> Result<R, E> + Send + 'static,
) -> PyResult<R>
where
    R: Send + 'static,
    E: Into<PyErr> + Send + 'static,
{
    let progress = run.bar(py);
    let poll = |ctl: &Control| report(progress.as_ref(), ctl);
    cancellable_polling(py, Some(run), poll, job)
}

/// [`cancellable`] with no timeout and no progress: the short preparations
/// (a plan, a total) that Ctrl-C may still stop.
pub(crate) fn interruptible<R, E>(
    py: Python<'_>,
    job: impl FnOnce(&Control) -> Result<R, E> + Send + 'static,
) -> PyResult<R>
where
    R: Send + 'static,
    E: Into<PyErr> + Send + 'static,
{
    cancellable_polling(py, None, |_: &Control| Ok(()), job)
}

/// Tell `progress(done, total)`, if given, the `Control`'s counters, and
/// `progress.note(text)` each note of the core since the last report.
pub(crate) fn report(progress: Option<&Bound<'_, PyAny>>, ctl: &Control) -> PyResult<()> {
    if let Some(callback) = progress {
        let notes = ctl.take_notes();
        if !notes.is_empty() && callback.hasattr("note")? {
            for text in notes {
                callback.call_method1("note", (text,))?;
            }
        }
        callback.call1(ctl.progress())?;
    }
    Ok(())
}

/// [`cancellable`] with any `poll(ctl)` run between waits instead of a
/// progress callback; an error from it cancels the job and is raised.
pub(crate) fn cancellable_polling<R, E>(
    py: Python<'_>,
    run: Option<&RunOptions>,
    mut poll: impl FnMut(&Control) -> PyResult<()>,
    job: impl FnOnce(&Control) -> Result<R, E> + Send + 'static,
) -> PyResult<R>
where
    R: Send + 'static,
    E: Into<PyErr> + Send + 'static,
{
    let timeout = run.and_then(RunOptions::seconds);
    let deadline = deadline(timeout)?;
    let ctl = Arc::new(match run.and_then(RunOptions::stop_after) {
        Some(units) => Control::stopping_after(units),
        None => Control::new(),
    });
    let job_ctl = ctl.clone();
    let (tx, rx) = mpsc::channel();
    // The job's captures are dropped when it returns, before its answer
    // is sent: a call returns with nothing of its job still held (a
    // checkpoint's lock, a spilled file).
    engine::run_on_thread("solvers-search", "the search thread", move || {
        let _ = tx.send(job(&job_ctl));
    })?;
    let mut rx = rx;
    loop {
        let (got, back) = py.detach(move || {
            let got = rx.recv_timeout(POLL);
            (got, rx)
        });
        rx = back;
        match got {
            Ok(result) => {
                // The last notes, said since the last poll, are shown too
                // (the answer or error is in hand: a failing bar cannot change it).
                let _ = poll(&ctl);
                return result.map_err(Into::into);
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "internal error: the search thread stopped without an answer",
                ));
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        let stopped = if let Err(e) = py.check_signals() {
            Some(e)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(PyTimeoutError::new_err(format!(
                "no answer within the timeout of {} s",
                timeout.unwrap_or_default()
            )))
        } else {
            poll(&ctl).err()
        };
        if let Some(e) = stopped {
            stop(py, &ctl, rx);
            return Err(e);
        }
    }
}

/// The instant `timeout` seconds from now; `None` for no timeout, and for
/// one too long for an `Instant` (no limit at all).
fn deadline(timeout: Option<f64>) -> PyResult<Option<Instant>> {
    match timeout {
        None => Ok(None),
        Some(t) if t.is_finite() && t >= 0.0 => Ok(Duration::try_from_secs_f64(t)
            .ok()
            .and_then(|d| Instant::now().checked_add(d))),
        Some(t) => Err(PyValueError::new_err(format!(
            "timeout must be a non-negative number of seconds, got {t}"
        ))),
    }
}

/// Cancel a job and wait, with the GIL released, at most [`CANCEL_GRACE`]
/// for it to end (the search polls the flag every few thousand nodes, so
/// this is quick); past that the thread is left to end on its own.
fn stop<T: Send>(py: Python<'_>, ctl: &Control, rx: Receiver<T>) {
    ctl.cancel();
    // Past the grace the job is left to end on its own, its answer dropped.
    py.detach(move || drop(rx.recv_timeout(CANCEL_GRACE)));
}

/// Wait, with the GIL released, for the next item of a stream, checking for
/// Ctrl-C between short waits; `None` once the stream has ended.
pub(crate) fn next_item<T: Send>(
    py: Python<'_>,
    recv: impl Fn() -> Result<T, RecvTimeoutError> + Sync,
) -> PyResult<Option<T>> {
    loop {
        match py.detach(&recv) {
            Ok(item) => return Ok(Some(item)),
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
        }
    }
}

/// The receiving end of a stream's producer thread.
pub(crate) trait Source: Send {
    type Item: Send;

    /// The next item, waiting at most `timeout`; `Disconnected` once the
    /// producer has ended.
    fn recv_timeout(&self, timeout: Duration) -> Result<Self::Item, RecvTimeoutError>;

    /// Stop the producer, for sources that own it (and wait for it to end).
    fn close(&mut self) {}
}

/// The body of a stream class: `next` and `close` for its `__next__` and
/// `close`.  A source whose producer listens to a [`Control`] is given it
/// ([`Stream::cancelling`]): closing the stream, or dropping it, cancels it.
pub(crate) struct Stream<S: Source> {
    source: Mutex<S>,
    ctl: Option<Arc<Control>>,
}

impl<S: Source> Stream<S> {
    /// A stream over a source that stops its own producer.
    pub(crate) fn new(source: S) -> Self {
        Stream {
            source: Mutex::new(source),
            ctl: None,
        }
    }

    /// A stream whose producer stops when `ctl` is cancelled.
    pub(crate) fn cancelling(source: S, ctl: Arc<Control>) -> Self {
        Stream {
            source: Mutex::new(source),
            ctl: Some(ctl),
        }
    }

    fn source(&self) -> MutexGuard<'_, S> {
        self.source.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The next item, or `None` once the stream has ended.
    pub(crate) fn next(&self, py: Python<'_>) -> PyResult<Option<S::Item>> {
        next_item(py, || self.source().recv_timeout(POLL))
    }

    /// Stop the producer; the stream then ends (after what it had buffered).
    pub(crate) fn close(&self, py: Python<'_>) {
        if let Some(ctl) = &self.ctl {
            ctl.cancel();
        }
        py.detach(|| self.source().close());
    }
}

impl<S: Source> Drop for Stream<S> {
    fn drop(&mut self) {
        if let Some(ctl) = &self.ctl {
            ctl.cancel();
        }
    }
}

/// A stream class for Python: the `#[pyclass]` over a [`Stream`] of
/// `$source`, its constructor (given whole, as `{ #[new] fn new(...) ... }`),
/// and the `__iter__`, `__next__` (each item through `$convert`, a
/// `PyResult<$item>`) and `close` every stream class has.
macro_rules! stream_class {
    (
        $(#[$doc:meta])*
        $vis:vis $name:ident($source:ty) -> $item:ty,
        |$py:ident, $x:ident| $convert:expr,
        { $($new:tt)* }
    ) => {
        $(#[$doc])*
        #[pyclass(frozen, module = "solvers._core")]
        $vis struct $name($crate::python::runtime::Stream<$source>);

        #[pymethods]
        impl $name {
            $($new)*

            fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
                slf
            }

            /// The next item, or `StopIteration`.
            fn __next__(&self, $py: Python<'_>) -> PyResult<Option<$item>> {
                self.0.next($py)?.map(|$x| $convert).transpose()
            }

            /// Stop the producer thread; the stream then ends.
            fn close(&self, py: Python<'_>) {
                self.0.close(py);
            }
        }
    };
}
pub(crate) use stream_class;

/// A receiver whose own `recv_timeout` is all a [`Source`] needs (its
/// producer stops through the stream's `Control`).
macro_rules! receiver_source {
    ($receiver:ty => $item:ty) => {
        impl $crate::python::runtime::Source for $receiver {
            type Item = $item;

            fn recv_timeout(
                &self,
                timeout: std::time::Duration,
            ) -> Result<$item, std::sync::mpsc::RecvTimeoutError> {
                <$receiver>::recv_timeout(self, timeout)
            }
        }
    };
}
pub(crate) use receiver_source;
