//! Finding and verifying a full magic set, single-threaded: the figure `magic-search` is judged
//! by (README and results/ quote it).

use bitforge_index::{Scheme, verify};
use criterion::{Criterion, criterion_group, criterion_main};
use magic_search::{SearchConfig, find_set};

fn find_and_verify(c: &mut Criterion) {
    let mut group = c.benchmark_group("magic_search");
    group.sample_size(20);
    for scheme in Scheme::ALL {
        let config = SearchConfig {
            scheme,
            ..SearchConfig::default()
        };
        group.bench_function(format!("find_and_verify_{scheme}_1_thread"), |b| {
            b.iter(|| {
                let (set, _) = find_set(&config, 1, &|_| {});
                verify(&set).expect("found sets verify")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, find_and_verify);
criterion_main!(benches);
