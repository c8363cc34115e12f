//! The drops of [`super::multi::MultiWalk`] (Algorithm M): an option's
//! nodes swapped out of their items' active prefixes, each item's size
//! saved on the trail once an epoch, stopping as soon as an item is left
//! with fewer options than it needs.  These loops are most of the walk's
//! time, so they take the walk's arrays as separate arguments (the
//! compiler then knows that they do not overlap) and index them unchecked,
//! with the checks as debug asserts.

/// Item `i`'s words in `val` (see `MultiWalk::val`): its active options,
/// how many more it needs, the epoch its size was saved in.
pub(super) const SIZE: usize = 1;
pub(super) const NEED: usize = 2;
pub(super) const SAVED: usize = 3;

/// The need of an item whose options no longer change (are frozen): a
/// secondary item in a chosen option, or a primary item shut (see
/// `MultiWalk::shut_primary`); an open secondary item needs 0.  The
/// drop passes frozen items by, so an item shut or frozen before its other
/// options go keeps its list as it was.
pub(super) const FROZEN: u32 = u32::MAX;

/// A node's item and its place in `set` (read together).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct Nd {
    pub itm: u32,
    pub loc: u32,
}

/// Drop `nodes` (the nodes of one option) from their items' active
/// prefixes, except the frozen items': swap each past its item's active
/// prefix and shrink the prefix, saving the item's size on the trail the
/// first time it changes in `epoch`.  Whether an item is left with fewer
/// options than it needs.
#[inline(always)]
pub(super) fn drop_nodes(
    set: &mut [u32],
    nd: &mut [Nd],
    val: &mut [u32],
    trail: &mut Vec<(u32, u32)>,
    epoch: u32,
    nodes: std::ops::Range<usize>,
) -> bool {
    // At most an entry a node.
    let most = nodes.len();
    with_room(trail, most, |room| {
        drop_one(set, nd, val, room, epoch, nodes)
    })
}

/// Run `drops` on room for `most` entries after the trail's end, and keep
/// the entries it wrote there (it returns where they end); what `drops`
/// returns first.
#[inline(always)]
fn with_room(
    trail: &mut Vec<(u32, u32)>,
    most: usize,
    drops: impl FnOnce(*mut (u32, u32)) -> (bool, *mut (u32, u32)),
) -> bool {
    trail.reserve(most);
    let room = trail.spare_capacity_mut().as_mut_ptr().cast::<(u32, u32)>();
    let (dead, end) = drops(room);
    // SAFETY: `drops` writes its entries from `room` on, at most `most`
    // (within the room reserved), and returns where they end.
    unsafe { trail.set_len(trail.len() + end.offset_from(room) as usize) };
    dead
}

/// [`drop_loop`] on one option, out of line (see there).
#[inline(never)]
fn drop_one(
    set: &mut [u32],
    nd: &mut [Nd],
    val: &mut [u32],
    save: *mut (u32, u32),
    epoch: u32,
    nodes: std::ops::Range<usize>,
) -> (bool, *mut (u32, u32)) {
    drop_loop::<true>(set, nd, val, save, epoch, nodes)
}

/// The options of a shut item, where [`drop_nodes`] takes them out: the
/// item's active nodes `set[list]`, each option's node range in `starts`
/// (by `opt`, each node's option), the option `keep` that stays, and, for
/// a secondary item, each node's colour `clr` and the colour `c` that
/// stays (0: none stays).
pub(super) struct Shut<'a> {
    pub list: std::ops::Range<usize>,
    pub opt: &'a [u32],
    pub starts: &'a [u32],
    pub clr: &'a [u32],
    pub keep: u32,
    pub c: u32,
    /// Whether the problem has secondary items: without them, the only
    /// frozen item an option of a shut item's list holds is that item
    /// (every other shut item's options have left every list).
    pub secondary: bool,
}

/// [`drop_options`] for a walk of `items` items, on its trail.
pub(super) fn drop_shut(
    set: &mut [u32],
    nd: &mut [Nd],
    val: &mut [u32],
    trail: &mut Vec<(u32, u32)>,
    epoch: u32,
    items: usize,
    shut: &Shut,
) -> bool {
    // An item's size is saved once an epoch, so the drops write at most an
    // entry an item.
    with_room(trail, items, |room| {
        if shut.secondary {
            drop_options::<true>(set, nd, val, room, epoch, shut)
        } else {
            drop_options::<false>(set, nd, val, room, epoch, shut)
        }
    })
}

/// Drop every option of `shut` (but the ones that stay) as [`drop_nodes`]
/// does, the trail's entries written from `save` on, stopping at the first
/// that leaves an item with fewer options than it needs: whether one did,
/// and the end of the entries written.  The loop over the options is here
/// with the drops, out of line: called an option at a time, the call and
/// the reloads of the walk's fields cost a third of the drops' own work.
/// Each option's nodes are dropped around the shut item's own (which
/// stays), so that only `SECONDARY` (a problem with secondary items) asks
/// of each node whether its item is frozen.
#[inline(never)]
fn drop_options<const SECONDARY: bool>(
    set: &mut [u32],
    nd: &mut [Nd],
    val: &mut [u32],
    mut save: *mut (u32, u32),
    epoch: u32,
    shut: &Shut,
) -> (bool, *mut (u32, u32)) {
    for k in shut.list.clone() {
        debug_assert!(k < set.len() && (set[k] as usize) < shut.opt.len());
        // SAFETY: the list is an item's slice of `set`, which holds nodes.
        let x = unsafe { *set.get_unchecked(k) } as usize;
        // SAFETY: `opt` and `clr` have an entry a node.
        let o = unsafe { *shut.opt.get_unchecked(x) };
        if o == shut.keep || (shut.c != 0 && unsafe { *shut.clr.get_unchecked(x) } == shut.c) {
            continue;
        }
        debug_assert!((o as usize) + 1 < shut.starts.len());
        // SAFETY: `starts` has an entry an option and one more.
        let (start, end) = unsafe {
            (
                *shut.starts.get_unchecked(o as usize) as usize,
                *shut.starts.get_unchecked(o as usize + 1) as usize,
            )
        };
        debug_assert!((start..end).contains(&x), "node {x} is option {o}'s");
        for nodes in [start..x, x + 1..end] {
            let dead;
            (dead, save) = drop_loop::<SECONDARY>(set, nd, val, save, epoch, nodes);
            if dead {
                return (true, save);
            }
        }
    }
    (false, save)
}

/// [`drop_nodes`]'s loop, the trail's entries written from `save` on (the
/// end of those written returned), stopping as soon as an item is left
/// with fewer options than it needs (the node is dead, and the rest of the
/// drops would only be undone).  Called from functions that take only
/// arrays and the cursor, so that its values stay in registers (inlined in
/// the walk's methods, the compiler kept the walk's fields and spilled the
/// loop's).
///
/// With `SKIP_FROZEN`, the nodes of frozen items are passed by; without
/// it, the caller knows there are none.
#[inline(always)]
fn drop_loop<const SKIP_FROZEN: bool>(
    set: &mut [u32],
    nd: &mut [Nd],
    val: &mut [u32],
    mut save: *mut (u32, u32),
    epoch: u32,
    nodes: std::ops::Range<usize>,
) -> (bool, *mut (u32, u32)) {
    for x in nodes {
        debug_assert!(x < nd.len(), "{x} is a node");
        // SAFETY: `nodes` are an option's, so nodes of the problem.
        let Nd { itm, loc: at } = unsafe { *nd.get_unchecked(x) };
        let i = itm as usize;
        debug_assert!(4 * i + SAVED < val.len(), "node {x}'s item {i} is an item");
        // SAFETY: a node's item is an item, so its four words are in `val`.
        let [base, size, need, saved] = unsafe {
            [
                *val.get_unchecked(4 * i),
                *val.get_unchecked(4 * i + SIZE),
                *val.get_unchecked(4 * i + NEED),
                *val.get_unchecked(4 * i + SAVED),
            ]
        };
        if SKIP_FROZEN && need == FROZEN {
            continue;
        }
        debug_assert!(need != FROZEN, "node {x}'s item {i} is frozen");
        debug_assert!(
            size > 0 && at < base + size,
            "node {x} is active in item {i}"
        );
        if saved != epoch {
            // SAFETY: as for the four words above; at most one entry an
            // item an epoch, within the room the caller reserved.
            unsafe {
                *val.get_unchecked_mut(4 * i + SAVED) = epoch;
                save.write(((4 * i + SIZE) as u32, size));
                save = save.add(1);
            }
        }
        let last = (base + size).wrapping_sub(1);
        debug_assert!(
            (last as usize) < set.len(),
            "item {i}'s size {size} is in `set`"
        );
        // SAFETY: an active node's item has a size of at least 1 that
        // never runs past its slice of `set` (sizes only shrink from
        // their slices' lengths and are restored), so `last` is in
        // `set`; `at` is a node's place, and places are only ever set
        // to a `last` or another place, so it is in `set` too; `set`
        // holds node numbers only (it is swapped, never written
        // otherwise), so `x` and `y` are in `nd`.
        unsafe {
            let y = *set.get_unchecked(last as usize);
            *set.get_unchecked_mut(last as usize) = x as u32;
            *set.get_unchecked_mut(at as usize) = y;
            nd.get_unchecked_mut(x).loc = last;
            nd.get_unchecked_mut(y as usize).loc = at;
            *val.get_unchecked_mut(4 * i + SIZE) = size - 1;
        }
        if size - 1 < need {
            return (true, save);
        }
    }
    (false, save)
}
