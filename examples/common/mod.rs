//! The arguments the frontier examples share: `ROWS COLS [all|R,C]
//! [closed] [THREADS]`, then each example's own.

/// A count's board and question, from the command line.
pub struct CountArgs {
    pub rows: usize,
    pub cols: usize,
    /// The start's board cell (`R,C`), or `None` for every start (`all`).
    pub start: Option<usize>,
    pub closed: bool,
    /// 0: as many as the machine has.
    pub threads: usize,
    /// Every argument, for the example's own past the fifth.
    pub rest: Vec<String>,
}

impl CountArgs {
    pub fn parse() -> CountArgs {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let num = |i: usize, default: usize| -> usize {
            args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
        };
        let (rows, cols) = (num(0, 6), num(1, 6));
        let start = match args.get(2).map(String::as_str) {
            None | Some("all") => None,
            Some(rc) => {
                let (r, c) = rc.split_once(',').expect("start as R,C");
                Some(r.parse::<usize>().unwrap() * cols + c.parse::<usize>().unwrap())
            }
        };
        let closed = args.get(3).is_some_and(|a| a == "closed");
        let threads = num(4, 0);
        CountArgs {
            rows,
            cols,
            start,
            closed,
            threads,
            rest: args,
        }
    }

    /// Argument `i` as a number, `default` if absent or not one.
    #[allow(dead_code)] // (each example compiles this module; not all take a number of their own)
    pub fn num(&self, i: usize, default: usize) -> usize {
        self.rest
            .get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(default)
    }
}
