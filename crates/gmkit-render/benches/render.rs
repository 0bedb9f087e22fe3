//! Rendering the largest corpus room (by area) once its texture pages are decoded; the first
//! render (which decodes them) is timed apart and printed.
//! `cargo bench -p gmkit-render --bench render`.

use criterion::{Criterion, criterion_group, criterion_main};
use gmkit_render::{PageCache, RenderOptions, render_room};
use std::time::Instant;

fn bench(c: &mut Criterion) {
    let Some(names) = gmkit_testdata::corpus_names_all() else {
        eprintln!("no corpus: nothing to benchmark");
        return;
    };
    let opts = RenderOptions::default();
    // The largest room that renders: (area, file, room index).
    let mut best: Option<(u64, String, usize)> = None;
    for n in &names {
        let Some(path) = gmkit_testdata::corpus_path(n) else {
            continue;
        };
        let Ok(data) = gmkit_data::parse_file(&path) else {
            continue;
        };
        for (k, r) in data.rooms.iter().flat_map(|r| r.rooms.iter()).enumerate() {
            if let Some(r) = r {
                let area = r.width as u64 * r.height as u64;
                if area <= opts.max_pixels && best.as_ref().is_none_or(|b| area > b.0) {
                    best = Some((area, n.clone(), k));
                }
            }
        }
    }
    let Some((_, name, room)) = best else {
        return;
    };
    let mut g = c.benchmark_group("render");
    g.sample_size(20);
    bench_room(&mut g, &name, room, opts, "");
    // The largest room of all, as the studio draws it: scaled to fit 4096 × 4096 pixels.
    if let Some((name, room, scale)) = largest_scaled(&names) {
        let opts = RenderOptions {
            scale,
            ..RenderOptions::default()
        };
        bench_room(&mut g, &name, room, opts, &format!(" at scale {scale:.3}"));
    }
    g.finish();
}

/// Renders room `room` of corpus file `name` once (its pages decoded: printed apart), prints
/// the CPU time a render takes, then benchmarks it with its pages decoded (`label` follows the
/// room in the printed lines and the benchmark's name).
fn bench_room(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    room: usize,
    opts: RenderOptions,
    label: &str,
) {
    let Some(path) = gmkit_testdata::corpus_path(name) else {
        return;
    };
    let data = gmkit_data::parse_file(&path).expect("parsed above");
    let mut cache = PageCache::default();
    let t = Instant::now();
    let first = render_room(&data, room, &mut cache, &opts).expect("renders");
    eprintln!(
        "{name} room {room}{label} ({}×{}): first render {:.1} ms ({} pages decoded)",
        first.image.width(),
        first.image.height(),
        t.elapsed().as_secs_f64() * 1e3,
        first.stats.pages_decoded
    );
    cpu_per_render(|| {
        render_room(&data, room, &mut cache, &opts).expect("renders");
    });
    g.bench_function(format!("{name} room {room}{label}, pages decoded"), |b| {
        b.iter(|| render_room(&data, room, &mut cache, &opts).expect("renders"))
    });
}

/// Prints the CPU time of the process (every thread) a render takes, over 10 renders: the
/// machine may be shared, when wall time includes waiting; large draws use every core.
fn cpu_per_render(mut render: impl FnMut()) {
    #[cfg(target_os = "linux")]
    {
        let cpu = || {
            let mut t = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: clock_gettime writes the timespec it is given.
            unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
            t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
        };
        let (t0, n) = (cpu(), 10);
        for _ in 0..n {
            render();
        }
        eprintln!(
            "  pages decoded: {:.1} ms of CPU (all threads) a render",
            (cpu() - t0) / n as f64
        );
    }
    #[cfg(not(target_os = "linux"))]
    let _ = &mut render;
}

/// The largest corpus room by area, with the scale that fits it into 4096 × 4096 pixels (the
/// studio's picture cap).
fn largest_scaled(names: &[String]) -> Option<(String, usize, f64)> {
    let mut best: Option<(u64, String, usize, f64)> = None;
    for n in names {
        let Some(data) =
            gmkit_testdata::corpus_path(n).and_then(|p| gmkit_data::parse_file(p).ok())
        else {
            continue;
        };
        for (k, r) in data.rooms.iter().flat_map(|r| r.rooms.iter()).enumerate() {
            if let Some(r) = r {
                let area = r.width as u64 * r.height as u64;
                if area > 0 && best.as_ref().is_none_or(|b| area > b.0) {
                    let scale = (4096.0 * 4096.0 / area as f64).sqrt().min(1.0) * 0.99;
                    best = Some((area, n.clone(), k, scale));
                }
            }
        }
    }
    best.map(|(_, n, k, s)| (n, k, s))
}

criterion_group!(benches, bench);
criterion_main!(benches);
