//! Knuth's DLX text read in one pass: the item line, then an option per
//! line (the format of his DLX1, DLX2 and SSXCC programs; the package's
//! `solvers.cover.dlx` documents it).  [`read`] numbers the problem as the
//! package's `ExactCover` does (items in the item line's order, colours in
//! order of first use) for text it reads exactly as the package's parser
//! would, and answers `None` for anything else: a malformed line, which
//! that parser then reports with its line and column, or text whose blanks
//! the two could split differently (a byte that is whitespace to Python's
//! `str.split` and not here, or any character past ASCII).

use crate::engine::SearchError;
use crate::memory;
use std::collections::HashMap;

/// A DLX problem, numbered: option `k` holds `items[starts[k]..starts[k + 1]]`
/// with the colours `colours[...]` (0: none; `c`: `palette[c - 1]`).
#[derive(Debug, PartialEq, Eq)]
pub struct Dlx<'a> {
    pub primary: Vec<&'a str>,
    pub secondary: Vec<&'a str>,
    pub starts: Vec<u32>,
    pub items: Vec<u32>,
    pub colours: Vec<u32>,
    pub palette: Vec<&'a str>,
}

/// The blanks between names: the ASCII whitespace Python's `str.split`
/// and this reader agree on (`\x0b` and `\x1c`-`\x1f`, also whitespace to
/// Python, send the text to the package's parser).
fn blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\x0c')
}

fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| c.is_ascii() && blank(c as u8))
        .filter(|word| !word.is_empty())
}

/// A name: not empty, holding neither `:` nor `|`.
fn name(word: &str) -> Option<&str> {
    (!word.is_empty() && !word.contains([':', '|'])).then_some(word)
}

/// The problem of DLX `text`, or `None` where the package's parser must
/// read it (see the module); at most `max_entries` entries; `Err(Memory)`
/// where its tables do not fit (never an abort).
pub fn read(text: &str, max_entries: usize) -> Result<Option<Dlx<'_>>, SearchError> {
    let mut failed = None;
    let read = pass(text, max_entries, &mut failed);
    failed.map_or(Ok(read), Err)
}

/// The pass itself: `None` for the parser, with `failed` set where a table
/// could not grow.
fn pass<'a>(
    text: &'a str,
    max_entries: usize,
    failed: &mut Option<SearchError>,
) -> Option<Dlx<'a>> {
    let what = "the options of the DLX text";
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if !text.is_ascii()
        || text
            .bytes()
            .any(|b| b == b'\x0b' || (0x1c..=0x1f).contains(&b))
    {
        return None;
    }
    let mut lines = text.split('\n').filter(|line| {
        let trimmed = line.trim_matches(|c: char| c == '\n' || blank(c as u8));
        !trimmed.is_empty() && !trimmed.starts_with('|') && !trimmed.starts_with("//")
    });
    let (primary, secondary) = header(lines.next()?)?;
    let n_primary = primary.len();
    let index: HashMap<&str, u32> = primary
        .iter()
        .chain(&secondary)
        .enumerate()
        .map(|(i, &item)| (item, i as u32))
        .collect();
    if index.len() != n_primary + secondary.len() || index.len() > max_entries {
        return None; // an item listed twice, or too many
    }
    let mut dlx = Dlx {
        primary,
        secondary,
        starts: vec![0],
        items: Vec::new(),
        colours: Vec::new(),
        palette: Vec::new(),
    };
    let mut palette: HashMap<&str, u32> = HashMap::new();
    let mut last_in = vec![usize::MAX; index.len()];
    for (k, line) in lines.enumerate() {
        let mut has_primary = false;
        for word in words(line) {
            let (item, colour) = match word.split_once(':') {
                Some((item, colour)) => (name(item)?, Some(name(colour)?)),
                None => (name(word)?, None),
            };
            let number = *index.get(item)?;
            if last_in[number as usize] == k {
                return None; // twice in one option
            }
            last_in[number as usize] = k;
            let primary = (number as usize) < n_primary;
            has_primary |= primary;
            let colour = match colour {
                None => 0,
                Some(_) if primary => return None, // a primary item has no colour
                Some(colour) => *palette.entry(colour).or_insert_with(|| {
                    dlx.palette.push(colour);
                    dlx.palette.len() as u32
                }),
            };
            if dlx.items.len() == max_entries {
                return None;
            }
            for table in [&mut dlx.items, &mut dlx.colours, &mut dlx.starts] {
                if let Err(e) = memory::try_reserve(table, 1, what) {
                    *failed = Some(e);
                    return None;
                }
            }
            dlx.items.push(number);
            dlx.colours.push(colour);
        }
        if !has_primary {
            return None;
        }
        dlx.starts.push(dlx.items.len() as u32);
    }
    Some(dlx)
}

/// The primary and secondary items of the item line: names, then
/// optionally `|` (alone or before the first secondary name) and names.
fn header(line: &str) -> Option<(Vec<&str>, Vec<&str>)> {
    let (mut primary, mut secondary) = (Vec::new(), Vec::new());
    let mut past_bar = false;
    for word in words(line) {
        let word = match word.strip_prefix('|') {
            Some(rest) if !past_bar => {
                past_bar = true;
                if rest.is_empty() {
                    continue;
                }
                rest
            }
            _ => word,
        };
        let item = name(word)?;
        if past_bar {
            secondary.push(item);
        } else {
            primary.push(item);
        }
    }
    (!primary.is_empty()).then_some((primary, secondary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_with_colours_is_numbered_as_the_package_numbers_it() {
        let text = "\u{feff}| a comment\n// another\na b | x y\r\n\na x:red\nb y:blue x:red\n  b\n";
        let dlx = read(text, 100).unwrap().unwrap();
        assert_eq!(dlx.primary, ["a", "b"]);
        assert_eq!(dlx.secondary, ["x", "y"]);
        assert_eq!(dlx.starts, [0, 2, 5, 6]);
        assert_eq!(dlx.items, [0, 2, 1, 3, 2, 1]);
        assert_eq!(dlx.colours, [0, 1, 0, 2, 1, 0]);
        assert_eq!(dlx.palette, ["red", "blue"]);
        let bar_before = read("a |x\na x\n", 100).unwrap().unwrap();
        assert_eq!(
            (bar_before.primary, bar_before.secondary),
            (vec!["a"], vec!["x"])
        );
    }

    #[test]
    fn anything_amiss_goes_to_the_package_s_parser() {
        for text in [
            "",
            "| only a comment\n",
            "a a\na\n",         // an item twice on the item line
            "a | x | y\na\n",   // '|' twice
            "a b\na c\n",       // unknown item
            "a b\na a\n",       // twice in an option
            "a | x\nx\n",       // no primary item in the option
            "a | x\na:red x\n", // a colour on a primary item
            "a | x\na x:\n",    // an empty colour
            "a | x\na x:r:g\n", // a colour holding ':'
            "a\u{e9} b\na\n",   // past ASCII
            "a\x0bb\na\n",      // whitespace to Python only
            "a:b\na\n",         // a name holding ':'
        ] {
            assert_eq!(read(text, 100).unwrap(), None, "{text:?}");
        }
        assert_eq!(read("a\na\na\n", 1).unwrap(), None); // past max_entries
        assert!(read("a\na\na\n", 2).unwrap().is_some());
    }
}
