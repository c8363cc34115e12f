//! The frontier's side of a checkpoint directory
//! ([`crate::layers::checkpoint`]): a [`Layer`] of any count width saved
//! after each step, with what the sweep needs to go on (the widest layer so
//! far, the growth of the recent steps), and read back as where to resume.

use super::growth::{self, Growth};
use super::layer::Layer;
use crate::engine::Control;
use crate::error::SearchError;
use crate::layers::checkpoint::{self, Saved};
use crate::layers::{Count, U256};
use std::path::Path;

/// Where a sweep goes on from, as a checkpoint directory says.
pub(super) enum Resume {
    /// The layer after step `step`, the widest layer up to it and the
    /// growth of the steps up to it.
    Layer {
        step: usize,
        layer: Layer,
        widest: u64,
        growth: Growth,
    },
    /// The count was finished: the undirected paths and the widest layer.
    Done { paths: U256, widest: u64 },
}

const WIDEST: &str = "widest";

/// What `dir` holds for the sweep of `steps` steps (`column` squares a
/// sweep column) tagged `problem`, whose layer after step `k` is tagged
/// `tag(k)`; `None`: nothing yet.
pub(super) fn resume(
    dir: &Path,
    problem: u64,
    steps: usize,
    column: usize,
    tag: impl Fn(usize) -> u64,
) -> Result<Option<Resume>, SearchError> {
    Ok(Some(match checkpoint::load(dir, problem)? {
        None => return Ok(None),
        Some(Saved::Done { answer, extras }) => Resume::Done {
            paths: answer,
            widest: extras.get(WIDEST)?,
        },
        Some(Saved::Layer(saved)) => {
            let step = usize::try_from(saved.step).unwrap_or(usize::MAX);
            if step >= steps || saved.tag != tag(step) {
                return Err(SearchError::Corrupt(format!(
                    "the checkpoint in {} names a step this count does not have; it cannot be \
                     used (remove the directory to count from the start)",
                    dir.display()
                )));
            }
            let widest = saved.extras.get(WIDEST)?;
            let last = saved.extras.get(growth::LAST)?;
            let growth = Growth::restored(column, last, |name| saved.extras.get(name).ok());
            let layer = match saved.count {
                t if t == u64::TAG => Layer::Narrow(saved.stored()?),
                t if t == u128::TAG => Layer::Wide(saved.stored()?),
                _ => Layer::Huge(saved.stored()?),
            };
            Resume::Layer {
                step,
                layer,
                widest,
                growth,
            }
        }
    }))
}

/// Save `layer`, the layer after step `step`, with the sweep's `widest`
/// and `growth`; the layer file's bytes.
pub(super) fn save(
    dir: &Path,
    problem: u64,
    step: usize,
    layer: &Layer,
    (widest, growth): (u64, &Growth),
    ctl: &Control,
) -> Result<u64, SearchError> {
    let mut extras = growth.saved();
    extras.push((WIDEST, widest));
    let step = step as u64;
    match layer {
        Layer::Narrow(l) => checkpoint::save(dir, problem, step, l, &extras, ctl),
        Layer::Wide(l) => checkpoint::save(dir, problem, step, l, &extras, ctl),
        Layer::Huge(l) => checkpoint::save(dir, problem, step, l, &extras, ctl),
    }
}

/// Record the finished count: its undirected `paths` and `widest` layer.
pub(super) fn finish(
    dir: &Path,
    problem: u64,
    paths: U256,
    widest: u64,
) -> Result<(), SearchError> {
    checkpoint::finish(dir, problem, paths, &[(WIDEST, widest)])
}
