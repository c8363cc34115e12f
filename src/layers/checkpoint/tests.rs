//! Layers round trip through a checkpoint; foreign, damaged or vanished files
//! are refused, and a resumed count gives the same answer.

use super::*;
use crate::layers::testing::halves_step;
use crate::layers::{step, Label, Packed, Spill, Spilling};

/// A fresh directory, removed with its contents when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "solvers-checkpoint-test-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        Scratch(dir)
    }

    /// The names of the files in the directory, sorted.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A layer of `SHARDS` shards (some empty) with counts `make(key)`.
fn shards<W: Count>(make: impl Fn(u64) -> W) -> Vec<Packed<W>> {
    (0..SHARDS as u64)
        .map(|s| {
            let entries: Vec<(u64, W)> = (1..(s % 5) * 40)
                .map(|k| (k * 7919 + s, make(k * 7919 + s)))
                .collect();
            Packed::from_entries(&entries)
        })
        .collect()
}

fn entries<W: Count>(layer: &Stored<W>) -> Vec<(u64, W)> {
    let all = layer.try_fold(Vec::new(), |mut v, key, count| {
        v.push((key, count));
        Some(v)
    });
    all.unwrap().unwrap()
}

fn reloaded<W: Count>(dir: &Path, problem: u64) -> (SavedLayer, Stored<W>) {
    let Some(Saved::Layer(saved)) = load(dir, problem).unwrap() else {
        panic!("no layer saved");
    };
    let copy = SavedLayer {
        extras: saved.extras.clone(),
        file: saved.file.clone(),
        shards: saved.shards.clone(),
        ..saved
    };
    (copy, saved.stored().unwrap())
}

fn round_trip<W: Count>(make: impl Fn(u64) -> W) {
    let dir = Scratch::new(&format!("round-trip-{}", W::TAG));
    let layer = Stored::in_memory(shards(make), 77);
    let ctl = Control::new();
    save(
        &dir.0,
        5,
        9,
        &layer,
        &[("widest", 123), ("growth", 7)],
        &ctl,
    )
    .unwrap();
    let (saved, back) = reloaded::<W>(&dir.0, 5);
    assert_eq!((saved.step, saved.count, saved.tag), (9, W::TAG, 77));
    assert_eq!(saved.extras.get("widest").unwrap(), 123);
    assert_eq!(saved.extras.get("growth").unwrap(), 7);
    assert!(saved.extras.get("other").is_err());
    assert_eq!(back.len(), layer.len());
    assert_eq!(entries(&back), entries(&layer));
    // Another count type than saved is refused.
    let (saved, _) = reloaded::<W>(&dir.0, 5);
    if W::TAG == 0 {
        assert!(saved.stored::<u128>().is_err());
    } else {
        assert!(saved.stored::<u64>().is_err());
    }
}

#[test]
fn layers_round_trip_for_every_count_type() {
    round_trip(|k| k);
    round_trip(|k| (k as u128) << 90);
    round_trip(|k| U256 {
        hi: k as u128,
        lo: u128::MAX - k as u128,
    });
}

#[test]
fn a_spilled_layer_is_saved_whole() {
    let dir = Scratch::new("spilled");
    let spill = Spill::new(0, None);
    let memory = shards(|k| k * 3);
    let mut writer = Writer::create(spill_file(&spill)).unwrap();
    // Odd shards in a spill file, even ones in memory.
    let mixed: Vec<Shard<u64>> = (memory.iter().enumerate())
        .map(|(i, packed)| {
            let label = Label {
                problem: 11,
                shard: i as u32,
            };
            match i % 2 {
                1 => Shard::File(writer.append(label, packed).unwrap()),
                _ => Shard::Memory(Packed::from_entries(
                    &packed.entries().iter().collect::<Vec<_>>(),
                )),
            }
        })
        .collect();
    writer.finish().unwrap();
    let layer = Stored {
        shards: mixed,
        problem: 11,
    };
    save(&dir.0, 1, 0, &layer, &[], &Control::new()).unwrap();
    let (_, back) = reloaded::<u64>(&dir.0, 1);
    let want = Stored::in_memory(memory, 11);
    assert_eq!(entries(&back), entries(&want));
}

fn spill_file(spill: &Spill) -> PathBuf {
    spill.fresh("test").unwrap()
}

#[test]
fn another_problem_and_damaged_manifests_are_refused() {
    let dir = Scratch::new("foreign");
    assert!(
        load(&dir.0, 1).unwrap().is_none(),
        "no directory: a fresh start"
    );
    let layer = Stored::in_memory(shards(|k| k), 3);
    save(&dir.0, 1, 2, &layer, &[], &Control::new()).unwrap();
    let refused = |problem| match load(&dir.0, problem) {
        Err(SearchError::Corrupt(msg)) => msg,
        Ok(_) => panic!("loaded"),
        Err(e) => panic!("{e}"),
    };
    assert!(refused(2).contains("another count"));
    let manifest = dir.0.join(MANIFEST);
    let good = std::fs::read_to_string(&manifest).unwrap();
    for (from, to) in [
        ("step 2", "step 3"),
        ("shard 7 ", "shard 8 "),
        ("count 0", "count 1"),
    ] {
        std::fs::write(&manifest, good.replacen(from, to, 1)).unwrap();
        assert!(refused(1).contains("checksum"), "{from} -> {to}");
    }
    std::fs::write(&manifest, &good[..good.len() - 5]).unwrap();
    assert!(refused(1).contains("checksum"));
    std::fs::write(&manifest, b"\xff\xfe").unwrap();
    assert!(refused(1).contains("not text"));
    std::fs::write(&manifest, &good).unwrap();
    assert!(load(&dir.0, 1).unwrap().is_some());
}

#[test]
fn truncated_or_altered_layer_files_are_refused() {
    let dir = Scratch::new("damaged");
    let layer = Stored::in_memory(shards(|k| k + 1), 3);
    save(&dir.0, 1, 4, &layer, &[], &Control::new()).unwrap();
    let file = dir.0.join("layer-4.bin");
    let good = std::fs::read(&file).unwrap();
    // Truncated: refused on load.
    std::fs::write(&file, &good[..good.len() - 8]).unwrap();
    match load(&dir.0, 1) {
        Err(SearchError::Corrupt(msg)) => assert!(msg.contains("truncated"), "{msg}"),
        _ => panic!("a truncated layer file was loaded"),
    }
    std::fs::remove_file(&file).unwrap();
    match load(&dir.0, 1) {
        Err(SearchError::Corrupt(msg)) => assert!(msg.contains("missing"), "{msg}"),
        _ => panic!("a missing layer file was loaded"),
    }
    // Altered: refused when its shard is read, never a wrong count.
    for at in [5, 100, good.len() / 2, good.len() - 3] {
        let mut bad = good.clone();
        bad[at] ^= 0x04;
        std::fs::write(&file, &bad).unwrap();
        let (_, back) = reloaded::<u64>(&dir.0, 1);
        match back.try_fold(0u64, |n, _, _| Some(n + 1)) {
            Err(SearchError::Corrupt(msg)) => assert!(msg.contains("layer-4.bin"), "{msg}"),
            other => panic!("an altered byte at {at} read as {other:?}"),
        }
    }
}

#[test]
fn a_new_save_replaces_the_old_layer_and_reading_keeps_it() {
    let dir = Scratch::new("replace");
    let ctl = Control::new();
    let layer = Stored::in_memory(shards(|k| k), 3);
    save(&dir.0, 1, 4, &layer, &[], &ctl).unwrap();
    // A half-written file left by a kill goes with the next save.
    std::fs::write(dir.0.join("layer-6.bin"), b"half").unwrap();
    std::fs::write(dir.0.join("notes.txt"), b"mine").unwrap();
    save(&dir.0, 1, 5, &layer, &[], &ctl).unwrap();
    let names = dir.names();
    assert_eq!(names, ["layer-5.bin", "manifest", "notes.txt"]);
    // The checkpoint's file outlives the layer read from it.
    let (_, back) = reloaded::<u64>(&dir.0, 1);
    assert_eq!(entries(&back), entries(&layer));
    drop(back);
    assert!(dir.0.join("layer-5.bin").exists());
    assert!(load(&dir.0, 1).unwrap().is_some());
}

#[test]
fn a_finished_count_keeps_only_its_answer() {
    let dir = Scratch::new("done");
    let layer = Stored::in_memory(shards(|k| k), 3);
    save(&dir.0, 1, 4, &layer, &[], &Control::new()).unwrap();
    let answer = U256 {
        hi: 3,
        lo: u128::MAX - 1,
    };
    finish(&dir.0, 1, answer, &[("widest", 99)]).unwrap();
    assert!(!dir.0.join("layer-4.bin").exists());
    match load(&dir.0, 1).unwrap() {
        Some(Saved::Done { answer: a, extras }) => {
            assert_eq!(a, answer);
            assert_eq!(extras.get("widest").unwrap(), 99);
        }
        _ => panic!("no answer"),
    }
    assert!(matches!(load(&dir.0, 2), Err(SearchError::Corrupt(_))));
}

#[test]
fn a_cancelled_save_leaves_the_last_layer() {
    let dir = Scratch::new("cancelled");
    let layer = Stored::in_memory(shards(|k| k), 3);
    save(&dir.0, 1, 4, &layer, &[], &Control::new()).unwrap();
    let ctl = Control::new();
    ctl.cancel();
    let err = save(&dir.0, 1, 5, &layer, &[], &ctl);
    assert!(matches!(err, Err(SearchError::Cancelled)));
    assert!(!dir.0.join("layer-5.bin").exists());
    let (saved, _) = reloaded::<u64>(&dir.0, 1);
    assert_eq!(saved.step, 4);
}

/// The manifest's lines without its checksum line.
fn body(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
    let at = text.trim_end().rfind('\n').unwrap();
    text[..at + 1].to_string()
}

/// Write `body` as the manifest, signed with its right checksum (what
/// a foreign or buggy writer could do: the checksum alone passes it).
fn write_signed(dir: &Path, body: &str) {
    let text = format!("{body}checksum {:016x}\n", checksum(body));
    std::fs::write(dir.join(MANIFEST), text).unwrap();
}

/// The message of a `Corrupt` refusal by [`load`]; anything else fails.
fn refused(dir: &Path, problem: u64) -> String {
    match load(dir, problem) {
        Err(SearchError::Corrupt(msg)) => msg,
        Err(e) => panic!("refused, but not as corrupt: {e:?}"),
        Ok(_) => panic!("a damaged checkpoint was loaded"),
    }
}

#[test]
fn foreign_manifests_are_refused() {
    let dir = Scratch::new("foreign-manifest");
    let layer = Stored::in_memory(shards(|k| k), 3);
    save(&dir.0, 1, 2, &layer, &[], &Control::new()).unwrap();
    let manifest = dir.0.join(MANIFEST);
    let good = body(&dir.0);
    let mut sqlite = b"SQLite format 3\0".to_vec();
    sqlite.resize(4096, 0);
    let mut noise = 0x9e37_79b9_7f4a_7c15u64;
    let random: Vec<u8> = (0..3000)
        .map(|_| {
            noise ^= noise << 13;
            noise ^= noise >> 7;
            noise ^= noise << 17;
            noise as u8
        })
        .collect();
    let mut layer_file = std::fs::read(dir.0.join("layer-2.bin")).unwrap();
    layer_file.truncate(4096);
    let foreign: [(&str, Vec<u8>, &str); 6] = [
        ("empty", vec![], "checksum"),
        ("one line", FORMAT.as_bytes().to_vec(), "checksum"),
        ("sqlite", sqlite, "checksum"),
        ("random", random, "not text"),
        ("a layer file's start", layer_file, "not text"),
        ("huge", vec![b'\n'; MAX_MANIFEST as usize + 1], "too long"),
    ];
    for (what, bytes, why) in foreign {
        std::fs::write(&manifest, &bytes).unwrap();
        let msg = refused(&dir.0, 1);
        assert!(msg.contains(why), "{what}: {msg}");
        assert!(msg.contains("remove the directory"), "{what}: {msg}");
    }
    // Another version's manifest, its checksum right.
    write_signed(&dir.0, &good.replace(FORMAT, "solvers layer checkpoint 3"));
    assert!(refused(&dir.0, 1).contains("of this version"));
    // A directory where the manifest should be: a file error naming it.
    std::fs::remove_file(&manifest).unwrap();
    std::fs::create_dir(&manifest).unwrap();
    match load(&dir.0, 1) {
        Err(SearchError::File(msg)) => assert!(msg.contains("manifest"), "{msg}"),
        other => panic!("a directory read as a manifest: {:?}", other.err()),
    }
    std::fs::remove_dir(&manifest).unwrap();
    write_signed(&dir.0, &good);
    assert!(matches!(load(&dir.0, 1), Ok(Some(Saved::Layer(_)))));
}

#[test]
fn manifests_that_pass_their_checksum_but_not_the_format_are_refused() {
    let dir = Scratch::new("malformed");
    let layer = Stored::in_memory(shards(|k| k), 3);
    save(&dir.0, 1, 2, &layer, &[("widest", 5)], &Control::new()).unwrap();
    let good = body(&dir.0);
    let size = std::fs::metadata(dir.0.join("layer-2.bin")).unwrap().len();
    let last_shard = format!("shard {} ", SHARDS - 1);
    let cases: Vec<(String, &str)> = vec![
        (
            good.replacen("problem 0000000000000001", "problem 1", 1),
            "malformed",
        ),
        (good.replacen("step 2\n", "", 1), "malformed"),
        (good.replacen("step 2", "step -2", 1), "malformed"),
        (good.replacen("count 0", "count 7", 1), "unknown count type"),
        (
            good.replacen("count 0", "count 256", 1),
            "unknown count type",
        ),
        (good.replacen("tag ", "tag x", 1), "malformed"),
        (
            good.replacen("layer-2.bin", "layer-1.bin", 1),
            "unexpected layer file",
        ),
        (
            good.replacen("layer-2.bin", "../layer-2.bin", 1),
            "unexpected layer file",
        ),
        (good.replacen(&format!(" {size}\n"), " 1\n", 1), "malformed"),
        (good.replacen("shards 64", "shards 65", 1), "malformed"),
        (good.replacen("shards 64", "shards 63", 1), "malformed"),
        (good.replacen("shard 3 ", "shard 4 ", 1), "malformed"),
        (good.replacen(&last_shard, "shard 0 ", 1), "malformed"),
        (
            good.replacen("extra widest 5", "extra widest five", 1),
            "malformed",
        ),
        (good.replacen("extra widest 5", "widest 5", 1), "malformed"),
        (format!("{good}garbage\n"), "malformed"),
    ];
    for (text, why) in cases {
        assert_ne!(text, good, "a case that changes nothing ({why})");
        write_signed(&dir.0, &text);
        let msg = refused(&dir.0, 1);
        assert!(msg.contains(why), "{text}\n{msg}");
    }
    // A shard claiming the most entries a manifest can write: its size
    // is summed in 128 bits and is not the file's, never wrapped to it.
    let lines: Vec<&str> = good.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(&last_shard))
        .unwrap();
    let offset = lines[at].split(' ').nth(2).unwrap();
    let mut forged = lines.clone();
    let huge = format!("{last_shard}{offset} {}", u64::MAX);
    forged[at] = &huge;
    write_signed(&dir.0, &(forged.join("\n") + "\n"));
    assert!(refused(&dir.0, 1).contains("malformed"));
    // An answer that is not two 128-bit words.
    let done = format!(
        "{FORMAT}\nproblem 0000000000000001\ndone {:032x}\nextra widest 5\n",
        7
    );
    write_signed(&dir.0, &done);
    assert!(refused(&dir.0, 1).contains("malformed"));
    write_signed(&dir.0, &good);
    let (saved, back) = reloaded::<u64>(&dir.0, 1);
    assert_eq!((saved.step, saved.extras.get("widest").unwrap()), (2, 5));
    assert_eq!(entries(&back), entries(&layer));
}

#[test]
fn foreign_or_vanished_layer_files_are_refused_when_read() {
    let dir = Scratch::new("foreign-layer");
    let other = Scratch::new("foreign-layer-other");
    let ctl = Control::new();
    // Two counts whose layers have the same shape: only their tags differ.
    save(
        &dir.0,
        1,
        2,
        &Stored::in_memory(shards(|k| k), 3),
        &[],
        &ctl,
    )
    .unwrap();
    save(
        &other.0,
        1,
        2,
        &Stored::in_memory(shards(|k| k), 4),
        &[],
        &ctl,
    )
    .unwrap();
    let file = dir.0.join("layer-2.bin");
    let good = std::fs::read(&file).unwrap();
    let read_all = |dir: &Path| {
        let (_, back) = reloaded::<u64>(dir, 1);
        back.try_fold(0u64, |n, _, c| Some(n + c))
    };
    let want = read_all(&dir.0).unwrap();
    // The other count's file, the same length: its records say whose they are.
    std::fs::copy(other.0.join("layer-2.bin"), &file).unwrap();
    match read_all(&dir.0) {
        Err(SearchError::Corrupt(msg)) => assert!(msg.contains("another problem"), "{msg}"),
        other => panic!("another count's layer read as {other:?}"),
    }
    // Zeros and noise of the right length.
    let noise: Vec<u8> = (0..good.len()).map(|i| (i * 131 % 251) as u8).collect();
    for bytes in [vec![0u8; good.len()], noise] {
        std::fs::write(&file, &bytes).unwrap();
        match read_all(&dir.0) {
            Err(SearchError::Corrupt(msg)) => assert!(msg.contains("layer-2.bin"), "{msg}"),
            other => panic!("a foreign layer file read as {other:?}"),
        }
    }
    // Removed after the load, before its shards are read: a file error.
    std::fs::write(&file, &good).unwrap();
    let (_, back) = reloaded::<u64>(&dir.0, 1);
    std::fs::remove_file(&file).unwrap();
    match back.try_fold(0u64, |n, _, _| Some(n + 1)) {
        Err(SearchError::File(msg)) => assert!(msg.contains("layer-2.bin"), "{msg}"),
        other => panic!("a vanished layer file read as {other:?}"),
    }
    // Put back, it reads as saved.
    std::fs::write(&file, &good).unwrap();
    assert_eq!(read_all(&dir.0).unwrap(), want);
}

#[test]
fn files_left_by_a_kill_are_ignored_and_cleared() {
    let dir = Scratch::new("left-over");
    let ctl = Control::new();
    // A layer file without a manifest (killed in the first save): a
    // fresh start, and the next save removes it.
    std::fs::create_dir_all(&dir.0).unwrap();
    std::fs::write(dir.0.join("layer-1.bin"), b"half a layer").unwrap();
    assert!(load(&dir.0, 1).unwrap().is_none());
    let layer = Stored::in_memory(shards(|k| k + 7), 3);
    save(&dir.0, 1, 2, &layer, &[], &ctl).unwrap();
    assert!(!dir.0.join("layer-1.bin").exists());
    // A newer half-written layer and a half-written manifest.tmp (killed
    // in a later save): the saved layer is still what loads.
    std::fs::write(dir.0.join("layer-3.bin"), b"half").unwrap();
    std::fs::write(dir.0.join(TEMPORARY), b"solvers layer check").unwrap();
    let (saved, back) = reloaded::<u64>(&dir.0, 1);
    assert_eq!(saved.step, 2);
    assert_eq!(entries(&back), entries(&layer));
    drop(back);
    // Files that are not the checkpoint's stay.
    for name in ["layer-.bin", "layer-x.bin", "layer-4.bin.bak", "mine"] {
        std::fs::write(dir.0.join(name), b"not ours").unwrap();
    }
    save(&dir.0, 1, 4, &layer, &[], &ctl).unwrap();
    let names = dir.names();
    let want = [
        "layer-.bin",
        "layer-4.bin",
        "layer-4.bin.bak",
        "layer-x.bin",
        "manifest",
        "mine",
    ];
    assert_eq!(names, want);
}

/// `steps` steps of the toy DP from `layer`, saving each finished one
/// in `dir`; the answer, the sum of the last layer's counts.
fn count_on(
    mut layer: Stored<u64>,
    first: u64,
    steps: u64,
    dir: &Path,
    spill: &Spill,
) -> Result<u64, SearchError> {
    let ctl = Control::new();
    let expand = |shards: &[&Packed<u64>], tables| halves_step(shards, tables, 64, &ctl);
    for at in first..first + steps {
        let how = (Spilling::Passes, "t");
        let sizes = (layer.len(), layer.len());
        layer = step(&mut layer, sizes, 100 + at, spill, expand, how, &ctl)?;
        save(dir, 1, at, &layer, &[], &ctl)?;
    }
    let sum = layer.try_fold(0u64, |n, _, c| n.checked_add(c))?;
    Ok(sum.unwrap())
}

#[test]
fn a_resumed_count_gives_the_same_answer() {
    let entries: Vec<(u64, u64)> = (1..3000u64).map(|k| (k * 3, k % 5 + 1)).collect();
    for budget in [0, u64::MAX] {
        let dir = Scratch::new(&format!("resume-{budget}"));
        let spill = Spill::new(budget, None);
        let start = || Stored::by_shard(&entries, 99).unwrap();
        let want = count_on(start(), 0, 6, &dir.0, &spill).unwrap();
        assert!(want > 0);
        // Stopped after step 2 of 6, resumed from the directory.
        let again = Scratch::new(&format!("resume-again-{budget}"));
        count_on(start(), 0, 3, &again.0, &spill).unwrap();
        let (saved, layer) = reloaded::<u64>(&again.0, 1);
        assert_eq!((saved.step, saved.tag), (2, 102));
        let got = count_on(layer, saved.step + 1, 3, &again.0, &spill);
        assert_eq!(got.unwrap(), want, "budget {budget}");
        // Resumed from a layer altered on disk: a clear error, not a count.
        let file = again.0.join("layer-5.bin");
        let mut bytes = std::fs::read(&file).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&file, bytes).unwrap();
        let (saved, layer) = reloaded::<u64>(&again.0, 1);
        let got = count_on(layer, saved.step + 1, 1, &again.0, &spill);
        assert!(matches!(got, Err(SearchError::Corrupt(_))), "{got:?}");
    }
}
