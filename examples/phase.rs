use _core::engine::{self, Control};
use _core::knights::*;
use std::time::Instant;
fn main() {
    for _ in 0..3 {
        let t = Instant::now();
        let g = KnightGraph::new(Board::rectangle(3, 4).unwrap()).unwrap();
        let t1 = t.elapsed();
        let s = TourSearch::new(g, &[(8, 1)], false).unwrap();
        let t2 = t.elapsed();
        let tasks = engine::plan(&s, s.roots(), engine::tasks_for(1), 64);
        let t3 = t.elapsed();
        let n = engine::count(&s, &tasks, 1, &Control::new()).unwrap();
        let t4 = t.elapsed();
        drop(s);
        println!(
            "{n} graph {t1:?} search {t2:?} plan {t3:?} ({}) count {t4:?} drop {:?}",
            tasks.len(),
            t.elapsed()
        );
    }
}
