//! Shard records round trip (every count type, size and extreme); cut,
//! altered, forged or foreign bytes are refused.

use super::*;
use crate::layers::count::U256;
use crate::layers::spill::Spill;

#[test]
fn a_disk_found_full_is_a_disk_error() {
    // ENOSPC, as /dev/full gives on every write: a full disk (errno
    // ENOSPC in Python), not an unnamed file error.
    let path = Path::new("/dev/full");
    let full = std::io::Error::from(std::io::ErrorKind::StorageFull);
    match file_error("write", path, full) {
        SearchError::Disk(msg) => assert!(msg.contains("/dev/full"), "{msg}"),
        other => panic!("{other:?}"),
    }
    #[cfg(target_os = "linux")]
    {
        let mut file = File::options().write(true).open(path).unwrap();
        let e = file.write_all(&[0; 4096]).and_then(|()| file.flush());
        let e = e.expect_err("/dev/full takes no bytes");
        assert!(matches!(file_error("write", path, e), SearchError::Disk(_)));
    }
    let other = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
    assert!(matches!(
        file_error("write", path, other),
        SearchError::File(_)
    ));
}

fn sample<W: Count>(make: impl Fn(u64) -> W) -> Packed<W> {
    let entries: Vec<(u64, W)> = (1..300u64).map(|k| (k * 7919, make(k))).collect();
    Packed::from_entries(&entries)
}

fn entries<W: Count>(p: &Packed<W>) -> Vec<(u64, W)> {
    p.entries().iter().collect()
}

/// The label of shard `shard` of problem `problem`.
fn label_of(problem: u64, shard: u32) -> Label {
    Label { problem, shard }
}

/// `packed` written as the one record of a fresh file of `spill`.
fn written<W: Count>(spill: &Spill, label: Label, packed: &Packed<W>) -> Extent {
    let mut w = Writer::create(spill.fresh("t").unwrap()).unwrap();
    let extent = w.append(label, packed).unwrap();
    w.finish().unwrap();
    extent
}

/// `bad` with its checksum made right again: only the decoding refuses it.
fn resealed(bad: &mut [u8]) {
    let mut sum = Checksum::default();
    let end = bad.len() - 8;
    sum.add_bytes(&bad[..end]);
    bad[end..].copy_from_slice(&sum.value().to_le_bytes());
}

/// The message of a `Corrupt` refusal; anything else fails the test.
fn corrupt<W: Count>(got: Result<Packed<W>, SearchError>) -> String {
    match got {
        Err(SearchError::Corrupt(msg)) => msg,
        Err(e) => panic!("refused, but not as corrupt: {e:?}"),
        Ok(p) => panic!("read {} entries from a bad record", p.len()),
    }
}

/// A small generator of foreign bytes (xorshift), the same on every run.
fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn shards_round_trip_for_every_count_type() {
    let spill = Spill::new(0, None);
    let label = label_of(42, 3);
    let a = sample(|k| k);
    let b = sample(|k| (k as u128) << 100);
    let c = sample(|k| U256 {
        hi: k as u128,
        lo: 1,
    });
    let mut w = Writer::create(spill.fresh("t").unwrap()).unwrap();
    let (ea, eb, ec) = (
        w.append(label, &a).unwrap(),
        w.append(label, &b).unwrap(),
        w.append(label, &c).unwrap(),
    );
    w.finish().unwrap();
    assert_eq!(
        entries(&read_shard::<u64>(&ea, label).unwrap()),
        entries(&a)
    );
    assert_eq!(
        entries(&read_shard::<u128>(&eb, label).unwrap()),
        entries(&b)
    );
    assert_eq!(
        entries(&read_shard::<U256>(&ec, label).unwrap()),
        entries(&c)
    );
    // The wrong count type, problem or shard is refused.
    assert!(corrupt(read_shard::<u128>(&ea, label)).contains("count type"));
    for other in [label_of(43, 3), label_of(42, 4)] {
        let msg = corrupt(read_shard::<u64>(&ea, other));
        assert!(msg.contains("another problem"), "{msg}");
    }
    // The file goes with its last extent, the directory with the Spill.
    let path = ea.file.path().to_path_buf();
    let dir = path.parent().unwrap().to_path_buf();
    drop((ea, eb));
    assert!(path.exists(), "a spill file went before its last extent");
    drop(ec);
    assert!(!path.exists(), "a spill file outlived its extents");
    assert!(dir.exists());
    drop(spill);
    assert!(!dir.exists(), "the spill directory outlived its Spill");
}

/// Records of 0, 1 and many entries, and of the extreme keys and counts
/// of `W` (`max`), written end to end in one file, each read back alone
/// (in reverse order) as written, the file exactly their sizes.
fn records_round_trip<W: Count>(max: W, make: impl Fn(u64) -> W) {
    let spill = Spill::new(0, None);
    let records: Vec<Vec<(u64, W)>> = vec![
        vec![],
        vec![(1, W::from_narrow(1))],
        vec![(u64::MAX, max)],
        // A count of exactly WIDE (u64::MAX) is kept beside the slots.
        vec![(5, W::from_narrow(0)), (6, make(u64::MAX)), (7, max)],
        (1..=5000u64)
            .map(|k| (k.wrapping_mul(0x9e37), make(k)))
            .collect(),
        vec![],
    ];
    let mut writer = Writer::create(spill.fresh("t").unwrap()).unwrap();
    let mut extents = Vec::new();
    for (i, record) in records.iter().enumerate() {
        let label = label_of(u64::MAX - i as u64, i as u32);
        let extent = writer.append(label, &Packed::from_entries(record)).unwrap();
        assert_eq!(extent.len, record.len());
        extents.push((label, extent));
    }
    let written = writer.finish().unwrap();
    let path = extents[0].1.file.path().to_path_buf();
    assert_eq!(std::fs::metadata(&path).unwrap().len(), written);
    // Each record between the least and the most its entries take,
    // the records end to end.
    let ends: Vec<u64> = (extents.iter().skip(1).map(|(_, e)| e.offset))
        .chain([written])
        .collect();
    for (((_, extent), record), end) in extents.iter().zip(&records).zip(ends) {
        let took = end - extent.offset;
        assert!(took <= record_bytes::<W>(record.len()), "{took}");
        assert!(took as u128 >= record_least(record.len()), "{took}");
        assert_eq!(took % 8, 0);
    }
    // One entry with a key from 2^56 up and a full-width count takes
    // the most, exactly.
    assert_eq!(
        extents[3].1.offset - extents[2].1.offset,
        record_bytes::<W>(1)
    );
    for ((label, extent), record) in extents.iter().zip(&records).rev() {
        let back = read_shard::<W>(extent, *label).unwrap();
        assert_eq!(&entries(&back), record, "{label:?}");
    }
}

#[test]
fn records_of_every_size_and_extreme_round_trip() {
    records_round_trip(u64::MAX, |k| k);
    records_round_trip(u128::MAX, |k| (k as u128) << 64 | k as u128);
    let max = U256 {
        hi: u128::MAX,
        lo: u128::MAX,
    };
    records_round_trip(max, |k| U256 {
        hi: k as u128,
        lo: u128::MAX - k as u128,
    });
}

#[test]
fn truncated_or_altered_files_are_refused() {
    let spill = Spill::new(0, None);
    let label = label_of(7, 0);
    let extent = written(&spill, label, &sample(|k| k * 3));
    let path = extent.file.path().to_path_buf();
    let good = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        corrupt(read_shard::<u64>(&extent, label))
    };
    assert!(refused(&good[..good.len() - 1]).contains("truncated"));
    assert!(refused(&good[..10]).contains("truncated"));
    for at in [3, 40, 100, good.len() - 3] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        let msg = refused(&bad);
        assert!(
            ["altered", "out of order", "wider", "truncated", "magic"]
                .iter()
                .any(|why| msg.contains(why)),
            "{msg}"
        );
    }
    std::fs::write(&path, &good).unwrap();
    assert_eq!(read_shard::<u64>(&extent, label).unwrap().len(), 299);
}

#[test]
fn every_cut_of_a_file_is_refused_where_it_cuts_a_record() {
    let spill = Spill::new(0, None);
    let label = |shard| Label { problem: 9, shard };
    let first = Packed::from_entries(&[(3, 30u128), (4, u128::MAX)]);
    let second = Packed::from_entries(&[(8, 1u128)]);
    let mut w = Writer::create(spill.fresh("t").unwrap()).unwrap();
    let one = w.append(label(0), &first).unwrap();
    let two = w.append(label(1), &second).unwrap();
    w.finish().unwrap();
    let path = one.file.path().to_path_buf();
    let good = std::fs::read(&path).unwrap();
    let split = two.offset as usize;
    assert!(split as u64 <= record_bytes::<u128>(2));
    for cut in 0..good.len() {
        std::fs::write(&path, &good[..cut]).unwrap();
        // A record wholly before the cut still reads as written.
        if cut >= split {
            let back = read_shard::<u128>(&one, label(0)).unwrap();
            assert_eq!(entries(&back), entries(&first));
        } else {
            let msg = corrupt(read_shard::<u128>(&one, label(0)));
            assert!(msg.contains("truncated"), "cut at {cut}: {msg}");
        }
        let msg = corrupt(read_shard::<u128>(&two, label(1)));
        assert!(msg.contains("truncated"), "cut at {cut}: {msg}");
    }
}

#[test]
fn every_altered_bit_is_refused() {
    let spill = Spill::new(0, None);
    let label = label_of(0x1234_5678_9abc_def0, 17);
    let packed = Packed::from_entries(&[(1, 5u64), (u64::MAX, u64::MAX), (77, 0)]);
    let extent = written(&spill, label, &packed);
    let path = extent.file.path().to_path_buf();
    let good = std::fs::read(&path).unwrap();
    assert!(good.len() as u64 <= record_bytes::<u64>(3));
    for at in 0..good.len() {
        for bit in 0..8 {
            let mut bad = good.clone();
            bad[at] ^= 1 << bit;
            std::fs::write(&path, &bad).unwrap();
            let msg = corrupt(read_shard::<u64>(&extent, label));
            assert!(msg.contains(&path.display().to_string()), "{msg}");
        }
    }
    std::fs::write(&path, &good).unwrap();
    let back = read_shard::<u64>(&extent, label).unwrap();
    assert_eq!(entries(&back), [(1, 5), (77, 0), (u64::MAX, u64::MAX)]);
}

/// A count of `W` with `bytes` significant bytes, from random `bits`.
fn count_of<W: Count>(bits: &[u8], bytes: usize) -> W {
    let mut full = vec![0u8; W::BYTES];
    full[..bytes].copy_from_slice(&bits[..bytes]);
    if bytes > 0 {
        full[bytes - 1] |= 1;
    }
    W::take(&full)
}

/// Random shards (keys of every gap width, counts of every length),
/// each written unsorted and read back sorted, within the bounds.
fn random_records_round_trip<W: Count>() {
    let spill = Spill::new(0, None);
    let mut writer = Writer::create(spill.fresh("t").unwrap()).unwrap();
    let mut written = Vec::new();
    for seed in 1..40u64 {
        let n = (seed * seed * 7 % 1500) as usize;
        let bits = noise(seed, 8 + 32 + n * 48);
        let mut seen = std::collections::HashSet::new();
        let mut record = Vec::new();
        for (i, raw) in bits[40..].chunks_exact(48).enumerate() {
            // Keys spread over 2^8 to 2^64: gaps of 1 to 8 bytes.
            let key = u64::from_le_bytes(raw[..8].try_into().unwrap()) >> (8 * (i % 8));
            let count = count_of::<W>(&raw[8..40], i % (W::BYTES + 1));
            if key != 0 && seen.insert(key) {
                record.push((key, count));
            }
        }
        let label = label_of(seed, seed as u32 % 64);
        let extent = writer
            .append(label, &Packed::from_entries(&record))
            .unwrap();
        record.sort_by_key(|&(key, _)| key);
        written.push((label, extent, record));
    }
    let end = writer.finish().unwrap();
    for (i, (label, extent, record)) in written.iter().enumerate() {
        let next = written.get(i + 1).map_or(end, |(_, e, _)| e.offset);
        let took = next - extent.offset;
        assert!(took <= record_bytes::<W>(record.len()));
        assert!(took as u128 >= record_least(record.len()));
        let back = read_shard::<W>(extent, *label).unwrap();
        assert!(back.is_sorted());
        assert_eq!(&entries(&back), record);
    }
}

#[test]
fn random_records_of_every_count_type_round_trip() {
    random_records_round_trip::<u64>();
    random_records_round_trip::<u128>();
    random_records_round_trip::<U256>();
}

#[test]
fn the_bounds_of_a_record_are_the_least_and_the_most_it_can_take() {
    for n in [0usize, 1, 2, 7, 8, 1000] {
        assert_eq!(record_bytes::<u64>(n) as u128, record_bytes_wide::<u64>(n));
        assert_eq!(
            record_bytes::<U256>(n) as u128,
            record_bytes_wide::<U256>(n)
        );
        assert!(record_least(n) <= record_bytes_wide::<u64>(n));
    }
    // The header, the raw entries (8-byte keys, full counts) and a tag
    // byte an entry, the checksum.
    assert_eq!(record_bytes::<u64>(8), 40 + 8 * 17 + 8);
    assert_eq!(record_bytes::<u128>(8), 40 + 8 * 25 + 8);
    assert_eq!(record_bytes::<U256>(8), 40 + 8 * 41 + 8);
    assert_eq!(record_least(8), 40 + 16 + 8);
    // Keys 1, 2, ...: one-byte gaps, counts of 0: the least, exactly.
    let spill = Spill::new(0, None);
    let mut w = Writer::create(spill.fresh("t").unwrap()).unwrap();
    let zeros: Vec<(u64, u128)> = (1..=8).map(|k| (k, 0)).collect();
    w.append(label_of(0, 0), &Packed::from_entries(&zeros))
        .unwrap();
    assert_eq!(w.finish().unwrap() as u128, record_least(8));
    assert_eq!(gap_bytes(1), 1);
    assert_eq!(gap_bytes(255), 1);
    assert_eq!(gap_bytes(256), 2);
    assert_eq!(gap_bytes(u64::MAX), 8);
    assert_eq!(count_code(0u64), (0, 0));
    assert_eq!(count_code(255u64), (1, 1));
    assert_eq!(count_code(256u128), (2, 2));
    assert_eq!(count_code(u64::MAX), (8, 8));
    assert_eq!(count_code(u128::MAX), (16, 16));
    let wide = |hi: u128, lo: u128| count_code(U256 { hi, lo });
    assert_eq!(wide(0, 1), (1, 1));
    assert_eq!(wide(1, 0), (17, 17));
    assert_eq!(wide(u128::MAX, 0), (31, 32));
    // 31 bytes are written whole (the tag's 5 bits stop at 31).
    assert_eq!(wide(1 << 112, 0), (31, 32));
    assert_eq!(wide(1 << 111, 0), (30, 30));
}

#[test]
fn a_forged_gap_or_count_is_refused() {
    let spill = Spill::new(0, None);
    let label = label_of(3, 1);
    let extent = written(
        &spill,
        label,
        &Packed::from_entries(&[(9u64, 1u64), (10, 2)]),
    );
    let path = extent.file.path().to_path_buf();
    let good = std::fs::read(&path).unwrap();
    // The entries: tag, gap, count byte each, from byte 40.
    assert_eq!(good[40..46], [1, 9, 1, 1, 1, 2]);
    let forge = |at: usize, byte: u8| {
        let mut bad = good.clone();
        bad[at] = byte;
        resealed(&mut bad);
        std::fs::write(&path, &bad).unwrap();
        corrupt(read_shard::<u64>(&extent, label))
    };
    assert!(forge(44, 0).contains("out of order"));
    assert!(forge(40, 9).contains("wider"));
    assert!(forge(40, 31).contains("wider"));
    // A longer gap runs the entries past the record's end.
    assert!(forge(43, 0x61).contains("past its end"));
    // A count byte less leaves a byte that is not padding.
    assert!(forge(43, 0).contains("more than its entries"));
    // A gap that runs the key past 2^64.
    let top = [(u64::MAX - 1, 1u64), (u64::MAX, 1)];
    let extent = written(&spill, label, &Packed::from_entries(&top));
    let mut bad = std::fs::read(extent.file.path()).unwrap();
    // Tag, 8-byte gap, count; then the second entry's tag and gap.
    assert_eq!(bad[50..53], [1, 1, 1]);
    bad[51] = 2;
    resealed(&mut bad);
    std::fs::write(extent.file.path(), &bad).unwrap();
    assert!(corrupt(read_shard::<u64>(&extent, label)).contains("out of order"));
}

#[test]
fn foreign_files_are_refused() {
    let spill = Spill::new(0, None);
    let label = label_of(5, 2);
    let path = spill.fresh("foreign").unwrap();
    let file = Arc::new(FileRef::kept(path.clone()));
    let at = |offset, len| Extent {
        file: file.clone(),
        offset,
        len,
    };
    // Missing: a file error naming the file, not a corrupt record.
    match read_shard::<u64>(&at(0, 1), label) {
        Err(SearchError::File(msg)) => assert!(msg.contains("foreign"), "{msg}"),
        other => panic!("a missing file read as {:?}", other.map(|p| p.len())),
    }
    // Another format's header, padded to a plausible record's length.
    let mut sqlite = b"SQLite format 3\0".to_vec();
    sqlite.resize(4096, 0);
    let mut newer = Vec::new();
    newer.extend_from_slice(&MAGIC);
    newer.extend_from_slice(&(FORMAT + 1).to_le_bytes());
    newer.resize(record_bytes::<u64>(1) as usize, 0);
    let manifest = b"solvers layer checkpoint 1\nproblem 0000000000000005\n".to_vec();
    let foreign: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("zeros", vec![0; 4096]),
        ("sqlite", sqlite),
        ("newer format", newer),
        ("manifest", manifest),
        ("png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".repeat(8)),
    ];
    let noisy = (1..40u64).map(|seed| ("noise", noise(seed, (seed * 37) as usize)));
    for (what, bytes) in foreign.into_iter().chain(noisy) {
        std::fs::write(&path, &bytes).unwrap();
        for extent in [at(0, 0), at(0, 1), at(0, 1000), at(8, 3)] {
            let msg = corrupt(read_shard::<u64>(&extent, label));
            assert!(msg.contains("foreign"), "{what}: {msg}");
            corrupt(read_shard::<U256>(&extent, label));
        }
    }
    // A newer format is named as such.
    let mut newer = vec![0u8; record_bytes::<u64>(0) as usize];
    newer[..4].copy_from_slice(&MAGIC);
    newer[4..6].copy_from_slice(&(FORMAT + 1).to_le_bytes());
    std::fs::write(&path, &newer).unwrap();
    assert!(corrupt(read_shard::<u64>(&at(0, 0), label)).contains("another format"));
}

#[test]
fn extents_past_any_file_are_refused_not_wrapped() {
    let spill = Spill::new(0, None);
    let label = label_of(1, 0);
    let extent = written(&spill, label, &sample(|k| k));
    // Offsets and lengths no writer gives: refused, never an overflow
    // of the record's size or a huge allocation.
    for (offset, len) in [
        (u64::MAX, extent.len),
        (u64::MAX - 8, 0),
        (1 << 62, extent.len),
        (0, usize::MAX),
        (0, usize::MAX / 40),
        (0, extent.len + 1),
    ] {
        let bad = Extent {
            file: extent.file.clone(),
            offset,
            len,
        };
        corrupt(read_shard::<U256>(&bad, label));
        corrupt(read_shard::<u64>(&bad, label));
    }
    // A header that claims as many entries as the extent, both forged
    // to the most a `usize` holds: the record's size must not wrap.
    // The payload's length and the rest of the record: bytes of 1.
    let mut forged = header(u64::TAG, label, u64::MAX, u64::from_le_bytes([1; 8]));
    forged.resize(4096, 1);
    std::fs::write(extent.file.path(), &forged).unwrap();
    let bad = Extent {
        file: extent.file.clone(),
        offset: 0,
        len: usize::MAX,
    };
    let msg = corrupt(read_shard::<u64>(&bad, label));
    assert!(msg.contains("truncated") || msg.contains("size"), "{msg}");
}

#[test]
fn the_checksum_sees_any_one_word_changed() {
    let words = [0u64, 1, u64::MAX, 0x5356_4c53];
    let sum_of = |words: &[u64]| {
        let mut sum = Checksum::default();
        words.iter().for_each(|&w| sum.add(w));
        sum.value()
    };
    let base = sum_of(&words);
    for i in 0..words.len() {
        for flip in [1u64, 1 << 63, u64::MAX] {
            let mut changed = words;
            changed[i] ^= flip;
            assert_ne!(sum_of(&changed), base, "word {i} ^ {flip:x}");
        }
    }
    let mut bytes = Checksum::default();
    bytes.add_bytes(
        &words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<_>>(),
    );
    assert_eq!(bytes.value(), base);
}

/// The copy of the record at `extent` into a fresh file of `spill`, or the
/// refusal; the writer's file is dropped with the copy.
fn copied<W: Count>(spill: &Spill, extent: &Extent, label: Label) -> Result<Extent, SearchError> {
    let mut w = Writer::create(spill.fresh("copy").unwrap()).unwrap();
    let copy = w.copy::<W>(extent, label)?;
    w.finish().unwrap();
    Ok(copy)
}

/// The message of a copy's `Corrupt` refusal; anything else fails the test.
fn copy_refused<W: Count>(spill: &Spill, extent: &Extent, label: Label) -> String {
    match copied::<W>(spill, extent, label) {
        Err(SearchError::Corrupt(msg)) => msg,
        Err(e) => panic!("refused, but not as corrupt: {e:?}"),
        Ok(copy) => panic!("copied a bad record to {copy:?}"),
    }
}

#[test]
fn a_copied_record_is_the_same_bytes_and_reads_back() {
    let spill = Spill::new(0, None);
    let label = |shard| label_of(5, shard);
    let first = sample(|k| U256 {
        hi: k as u128 * 3,
        lo: k as u128,
    });
    let second = Packed::from_entries(&[(2, U256::from(1u128))]);
    let mut w = Writer::create(spill.fresh("t").unwrap()).unwrap();
    let one = w.append(label(0), &first).unwrap();
    let two = w.append(label(1), &second).unwrap();
    w.finish().unwrap();
    let source = std::fs::read(one.file.path()).unwrap();
    // Both into one file, the second first: offsets are the copy's own.
    let mut out = Writer::create(spill.fresh("copy").unwrap()).unwrap();
    let two_copy = out.copy::<U256>(&two, label(1)).unwrap();
    let one_copy = out.copy::<U256>(&one, label(0)).unwrap();
    let bytes = out.finish().unwrap();
    assert_eq!(bytes, source.len() as u64);
    assert_eq!((two_copy.offset, one_copy.len), (0, first.len()));
    let copy = std::fs::read(one_copy.file.path()).unwrap();
    let split = two.offset as usize;
    let moved = copy.len() - split;
    assert_eq!(copy[moved..], source[..split]);
    assert_eq!(copy[..moved], source[split..]);
    let back = read_shard::<U256>(&one_copy, label(0)).unwrap();
    assert_eq!(entries(&back), entries(&first));
    let back = read_shard::<U256>(&two_copy, label(1)).unwrap();
    assert_eq!(entries(&back), entries(&second));
    // What it must say is checked as a read checks it.
    let msg = copy_refused::<U256>(&spill, &one, label(1));
    assert!(msg.contains("another problem, step or shard"), "{msg}");
    let msg = copy_refused::<u64>(&spill, &one, label(0));
    assert!(msg.contains("count type"), "{msg}");
}

#[test]
fn every_altered_or_cut_record_is_refused_by_a_copy() {
    let spill = Spill::new(0, None);
    let label = label_of(0x0fed_cba9_8765_4321, 3);
    let packed = Packed::from_entries(&[(1, 5u128), (77, 0), (u64::MAX, u128::MAX)]);
    let extent = written(&spill, label, &packed);
    let path = extent.file.path().to_path_buf();
    let good = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        copy_refused::<u128>(&spill, &extent, label)
    };
    for at in 0..good.len() {
        for bit in 0..8 {
            let mut bad = good.clone();
            bad[at] ^= 1 << bit;
            let msg = refused(&bad);
            assert!(msg.contains(&path.display().to_string()), "{msg}");
        }
    }
    for cut in 0..good.len() {
        assert!(refused(&good[..cut]).contains("truncated"), "cut at {cut}");
    }
    std::fs::write(&path, &good).unwrap();
    let copy = copied::<u128>(&spill, &extent, label).unwrap();
    let back = read_shard::<u128>(&copy, label).unwrap();
    assert_eq!(entries(&back), entries(&packed));
}
