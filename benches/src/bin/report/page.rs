//! The results page: sections of tables and charts, each from the saved measurements.

use std::fs;
use std::path::{Path, PathBuf};

use bitforge::slider::Backend;
use bitforge_benches::{COUNTED_LOOKUPS, LookupPiece};
use bitforge_index::Scheme;

use crate::charts::{BarChart, Series};
use crate::estimates::Estimates;
use crate::iai::Summaries;
use crate::table::{Best, Table, short, thousands};
use bitforge_benches::machine::Machine;

/// The peers of the `peers` feature, by benchmark name.
const PEERS: [&str; 3] = ["cozy-chess", "shakmaty", "chess"];

/// The set-wise methods, by benchmark name.
const SETWISE: [&str; 5] = [
    "kogge-stone",
    "kogge-stone-avx2",
    "kogge-stone-avx512",
    "pext-per-piece",
    "pext-pdep-per-piece",
];

/// Everything the page is made from.
pub(crate) struct Report {
    pub(crate) machine: Machine,
    pub(crate) default: Estimates,
    pub(crate) native: Option<Estimates>,
    pub(crate) instructions: Summaries,
}

/// A benchmarked name: a backend, or a peer (benchmark id `peer/NAME`).
struct Row {
    label: String,
    id: String,
    table_kib: Option<f64>,
}

fn backend_rows() -> Vec<Row> {
    Backend::ALL
        .iter()
        .map(|backend| Row {
            label: backend.name().to_owned(),
            id: backend.name().to_owned(),
            table_kib: Some(backend.table_bytes() as f64 / 1024.0),
        })
        .collect()
}

fn all_rows() -> Vec<Row> {
    let peers = PEERS.iter().map(|peer| Row {
        label: format!("peer: {peer}"),
        id: format!("peer/{peer}"),
        table_kib: None,
    });
    backend_rows().into_iter().chain(peers).collect()
}

/// A row's nanoseconds per lookup of `piece` in lookup mode `mode`.
fn ns_per_lookup(estimates: &Estimates, piece: LookupPiece, mode: &str, row: &Row) -> Option<f64> {
    estimates.ns_per_element(&format!("lookups/{}/{mode}/{}", piece.name(), row.id))
}

/// The page being written and the charts written with it.
struct Writer<'a> {
    out: &'a Path,
    text: String,
    written: Vec<PathBuf>,
}

impl Writer<'_> {
    fn line(&mut self, line: &str) {
        self.text.push_str(line);
        self.text.push('\n');
    }

    fn chart(&mut self, file: &str, chart: &BarChart<'_>) -> Result<(), String> {
        if !chart.has_values() {
            return Ok(());
        }
        let path = self.out.join(file);
        chart.write_svg(&path)?;
        self.written.push(path);
        self.line(&format!("![{}]({file})\n", chart.title));
        Ok(())
    }

    fn table(&mut self, table: &Table) {
        if !table.is_empty() {
            self.line(&table.render());
        }
    }
}

impl Report {
    /// Writes README.md and the charts into `out`; returns the files written.
    pub(crate) fn write(&self, out: &Path) -> Result<Vec<PathBuf>, String> {
        let mut w = Writer {
            out,
            text: String::new(),
            written: Vec::new(),
        };
        self.header(&mut w);
        self.lookups(&mut w)?;
        self.streamed_queen(&mut w);
        self.perft(&mut w)?;
        self.engine_path(&mut w);
        self.setwise(&mut w);
        self.first_lookup(&mut w)?;
        self.magic_search(&mut w);
        self.instruction_counts(&mut w);
        let readme = out.join("README.md");
        fs::write(&readme, &w.text)
            .map_err(|e| format!("cannot write {}: {e}", readme.display()))?;
        w.written.push(readme);
        Ok(w.written)
    }

    /// The builds measured: a label and its estimates.
    fn builds(&self) -> Vec<(&'static str, &'static str, &Estimates)> {
        let mut builds = vec![("default build", "default", &self.default)];
        if let Some(native) = &self.native {
            builds.push(("`-C target-cpu=native`", "native", native));
        }
        builds
    }

    /// When the benchmarks whose ids start with `prefix` were run, per build: sections can be
    /// re-run alone, so the page says when each was measured.
    fn measured(&self, w: &mut Writer<'_>, prefix: &str) {
        let runs: Vec<String> = self
            .builds()
            .into_iter()
            .filter_map(|(_, tag, estimates)| {
                let (first, last) = estimates.saved_span(prefix)?;
                let time = humantime::format_rfc3339_seconds;
                // A section re-run in part holds figures from two runs: say both ends.
                Some(match last.duration_since(first) {
                    Ok(apart) if apart.as_secs() > 3600 => {
                        format!("{tag} {} to {} (re-run in part)", time(first), time(last))
                    }
                    _ => format!("{tag} {}", time(last)),
                })
            })
            .collect();
        if !runs.is_empty() {
            w.line(&format!("Measured: {}.\n", runs.join(", ")));
        }
    }

    fn header(&self, w: &mut Writer<'_>) {
        let m = &self.machine;
        let memory = m
            .memory_gib
            .map_or(String::new(), |gib| format!(", {gib:.0} GiB"));
        w.line("# Results\n");
        w.line(
            "Written by `cargo run --release -p bitforge-benches --bin report` from the \
             benchmark results saved on the machine below; do not edit by hand. The analysis \
             of these figures, issue by issue (what limits each backend, what was tried), is in \
             [analysis.md](analysis.md).\n",
        );
        w.line(&format!("- Generated: {} (UTC)", m.date));
        w.line(&format!(
            "- Machine: {}, {} logical cores{memory}; CPU features used: {}",
            m.cpu,
            m.cores,
            Machine::features()
        ));
        w.line(&format!("- System: {}; compiler: {}", m.kernel, m.rustc));
        w.line(
            "- Builds: the bench profile (thin LTO, one codegen unit). **Default**: no \
             RUSTFLAGS, baseline x86-64, BMI2 and the SIMD backends chosen by run-time \
             detection. **Native**: `RUSTFLAGS=\"-C target-cpu=native\"` (BMI2, AVX2, \
             AVX-512 and GFNI compiled in).",
        );
        w.line(
            "- Figures are criterion medians; each section says when its benchmarks ran (a \
                section may be re-run alone). The machine is shared, so compare within a table \
                (one run) rather than across sections or pages.\n",
        );
        w.line("Commands (from the workspace root; the last writes this page):\n");
        w.line("```sh");
        w.line("cargo bench -p bitforge-benches --features peers -- --warm-up-time 1 --measurement-time 2");
        w.line(
            "RUSTFLAGS=\"-C target-cpu=native\" CARGO_TARGET_DIR=\"$PWD/target/native\" \\\n    \
             cargo bench -p bitforge-benches --features peers -- --warm-up-time 1 --measurement-time 2",
        );
        w.line("cargo install iai-callgrind-runner --version 0.16.1   # once");
        w.line(
            "IAI_CALLGRIND_SAVE_SUMMARY=json cargo bench -p bitforge-benches --features \
             callgrind --bench instructions",
        );
        w.line("cargo run --release -p bitforge-benches --bin report");
        w.line("```\n");
    }

    fn lookups(&self, w: &mut Writer<'_>) -> Result<(), String> {
        w.line("## Slider lookups\n");
        self.measured(w, "lookups/");
        w.line(
            "Nanoseconds per lookup (`cargo bench --bench lookups`). *throughput*: 65,536 \
             independent lookups, random squares, occupancy `random & random` (about 25%); \
             *latency*: the same, each occupancy depending on the previous answer (one chain); \
             *real*: 65,536 lookups a legal move generator makes in the perft suites' \
             positions and every position two moves on (from each slider and each king); \
             *batch*: the random pairs through `rook_attacks_batch`. Table: the bytes of \
             tables the backend reads. Best of each column in bold.\n",
        );
        let rows = all_rows();
        const MODES: [&str; 4] = ["throughput", "latency", "real", "batch"];
        for (label, file_tag, estimates) in self.builds() {
            w.line(&format!("### {label}\n"));
            let mut table = Table::new(
                &[
                    "backend",
                    "table KiB",
                    "rook thr.",
                    "rook lat.",
                    "rook real",
                    "rook batch",
                    "bishop thr.",
                    "bishop lat.",
                    "bishop real",
                    "bishop batch",
                ],
                2,
                Best::Lowest,
            );
            for row in &rows {
                let numbers = LookupPiece::ALL
                    .iter()
                    .flat_map(|piece| MODES.map(|mode| ns_per_lookup(estimates, *piece, mode, row)))
                    .collect();
                let kib = row
                    .table_kib
                    .map_or("(peer)".to_owned(), |k| format!("{k:.1}"));
                table.row(vec![row.label.clone(), kib], numbers);
            }
            w.table(&table);
            // The ray walk (about 50 ns) would squash every other bar; the table has it.
            let rows: Vec<&Row> = rows
                .iter()
                .filter(|r| r.id != Backend::Reference.name())
                .collect();
            for piece in LookupPiece::ALL {
                let labels: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
                let series = MODES[..3]
                    .iter()
                    .map(|mode| Series {
                        label: (*mode).to_owned(),
                        values: rows
                            .iter()
                            .map(|row| ns_per_lookup(estimates, piece, mode, row))
                            .collect(),
                    })
                    .collect();
                let title = format!(
                    "{} lookups, ns per lookup ({file_tag} build; reference left out)",
                    piece.name()
                );
                w.chart(
                    &format!("lookups-{}-{file_tag}.svg", piece.name()),
                    &BarChart {
                        title: &title,
                        unit: "ns per lookup (lower is better)",
                        rows: &labels,
                        series,
                        log: false,
                    },
                )?;
            }
        }
        Ok(())
    }

    fn streamed_queen(&self, w: &mut Writer<'_>) {
        w.line("## Streamed queen lookups (Gigantua's workload)\n");
        self.measured(w, "streamed-queen/");
        w.line(
            "Millions of queen lookups per second (`cargo bench --bench lookups -- \
             streamed-queen`): Gigantua's Chess_Movegen workload, which benchmarks the C++ \
             twins of these methods: 5,000,000 `random & random` occupancies, twelve random \
             squares each, one queen lookup (rook | bishop) per pair XOR-accumulated, inputs \
             made beforehand and streamed, single thread; the loop runs inside the backend's \
             level (`Slider::within`), as `Backend::run` raises it. *native / default*: the \
             ratio of the two builds. *plain job*: the same loop as a `SliderJob` whose `run` \
             is written plainly (no `within`, no attribute) through `Backend::run`, once per \
             iteration (`slider-speed` measures it in a user's release profile).\n",
        );
        let builds = self.builds();
        let mut header = vec!["backend".to_owned()];
        header.extend(builds.iter().map(|(label, _, _)| (*label).to_owned()));
        if builds.len() == 2 {
            header.push("native / default".to_owned());
        }
        header.extend(builds.iter().map(|(_, tag, _)| format!("plain job, {tag}")));
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut table = Table::new(&header, 1, Best::Highest);
        for row in backend_rows() {
            let speeds = |prefix: &str| -> Vec<Option<f64>> {
                builds
                    .iter()
                    .map(|(_, _, estimates)| {
                        estimates.millions_per_second(&format!("{prefix}{}", row.id))
                    })
                    .collect()
            };
            let mut numbers = speeds("streamed-queen/");
            if let [default, native] = numbers[..] {
                numbers.push(
                    default
                        .zip(native)
                        .map(|(default, native)| native / default),
                );
            }
            numbers.extend(speeds("streamed-queen/plain-job/"));
            table.row(vec![row.label], numbers);
        }
        w.table(&table);
    }

    fn perft(&self, w: &mut Writer<'_>) -> Result<(), String> {
        w.line("## Perft\n");
        self.measured(w, "perft/");
        w.line(
            "Millions of leaf nodes per second (`cargo bench --bench perft`): the five speed \
             positions of `benches/data/perft-speed.epd` one ply shallower than the full run \
             (12.15 million nodes per iteration), single thread, bulk counting at the last \
             ply, no hashing; bitforge copy-makes a board of pieces, castling rights and en \
             passant square (no keys or history) with the side to move a type parameter, the \
             peers use their own move generators (each checked to count the same nodes). \
             Built for the CPU, bitforge's generator maps the enemy sliders' attacks with one \
             AVX2 fill whatever the backend (the backend answers every other lookup). \
             *x cozy* is the ratio to cozy-chess in the same run.\n",
        );
        let rows = all_rows();
        let builds = self.builds();
        let mut header = vec!["backend"];
        for (label, _, _) in &builds {
            header.push(label);
            header.push("x cozy");
        }
        let mut table = Table::new(&header, 1, Best::Highest);
        for row in &rows {
            let numbers = builds
                .iter()
                .flat_map(|(_, _, estimates)| {
                    let mnps = estimates.millions_per_second(&format!("perft/{}", row.id));
                    let cozy = estimates.millions_per_second("perft/peer/cozy-chess");
                    [mnps, mnps.zip(cozy).map(|(ours, cozy)| ours / cozy)]
                })
                .collect();
            table.row(vec![row.label.clone()], numbers);
        }
        w.table(&table);
        let labels: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
        let series = builds
            .iter()
            .map(|(_, tag, estimates)| Series {
                label: format!("{tag} build"),
                values: rows
                    .iter()
                    .map(|row| estimates.millions_per_second(&format!("perft/{}", row.id)))
                    .collect(),
            })
            .collect();
        w.chart(
            "perft.svg",
            &BarChart {
                title: "Perft, millions of nodes per second",
                unit: "Mnps (higher is better)",
                rows: &labels,
                series,
                log: false,
            },
        )
    }

    fn engine_path(&self, w: &mut Writer<'_>) {
        w.line("## Perft through the public API (the engine path)\n");
        self.measured(w, "engine-path/");
        w.line(
            "Millions of leaf nodes per second (`cargo bench --bench perft`, group \
             `engine-path`): the same trees walked as an engine's search walks them, through \
             `Position` (`legal_moves_into`, `do_move`, `undo_move`) or the copy-make `Board` \
             (`legal_moves_into`, `play`; *board* keeps Stockfish's three keys, \
             *board-position-key* the position's key alone), with the best backend here; \
             *last-ply* counts the last ply with `count_legal_moves`, *every-move* makes every \
             move, the leaves included. \
             The peers make every move by copy-make too (cozy-chess: clone + `play_unchecked`; \
             shakmaty: clone + `play_unchecked`; chess: `make_move_new`); their last-ply walk is \
             their perft above. *x cozy* is the ratio to cozy-chess's walk of the same kind in \
             the same run.\n",
        );
        let best = bitforge::slider::Backend::choose(None).map_or("pext", |b| b.name());
        let rows: Vec<(String, &str)> = [
            ("last-ply/position", "perft/peer/cozy-chess"),
            ("last-ply/board", "perft/peer/cozy-chess"),
            ("last-ply/board-position-key", "perft/peer/cozy-chess"),
            (
                "every-move/position",
                "engine-path/every-move/peer/cozy-chess",
            ),
            ("every-move/board", "engine-path/every-move/peer/cozy-chess"),
            (
                "every-move/board-position-key",
                "engine-path/every-move/peer/cozy-chess",
            ),
        ]
        .into_iter()
        .map(|(path, cozy)| (format!("engine-path/{path}/{best}"), cozy))
        .chain(["cozy-chess", "shakmaty", "chess"].into_iter().map(|peer| {
            (
                format!("engine-path/every-move/peer/{peer}"),
                "engine-path/every-move/peer/cozy-chess",
            )
        }))
        .collect();
        let builds = self.builds();
        let mut header = vec!["walk"];
        for (label, _, _) in &builds {
            header.push(label);
            header.push("x cozy");
        }
        let mut table = Table::new(&header, 1, Best::Highest);
        for (id, cozy) in &rows {
            let numbers = builds
                .iter()
                .flat_map(|(_, _, estimates)| {
                    let mnps = estimates.millions_per_second(id);
                    let cozy = estimates.millions_per_second(cozy);
                    [mnps, mnps.zip(cozy).map(|(ours, cozy)| ours / cozy)]
                })
                .collect();
            let label = id.trim_start_matches("engine-path/").to_string();
            table.row(vec![label], numbers);
        }
        w.table(&table);
    }

    fn setwise(&self, w: &mut Writer<'_>) {
        w.line("## Set-wise attacks\n");
        self.measured(w, "setwise/");
        w.line(
            "Nanoseconds per position (`cargo bench --bench setwise`): every square attacked by \
             one side's rooks and queens and its bishops and queens. *random*: 4,096 random \
             positions with two or three sliders of each kind; *roce*: both sides of the 126 \
             ROCE positions (0.62 sliders a side on average). The fills take all sliders at \
             once; the per-piece methods loop over the pieces with single lookups.\n",
        );
        let builds = self.builds();
        let mut header = vec!["method".to_owned()];
        for (label, _, _) in &builds {
            header.push(format!("random, {label}"));
            header.push(format!("roce, {label}"));
        }
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut table = Table::new(&header, 1, Best::Lowest);
        for method in SETWISE {
            let numbers = builds
                .iter()
                .flat_map(|(_, _, estimates)| {
                    ["random", "roce"]
                        .map(|input| estimates.ns_per_element(&format!("setwise/{input}/{method}")))
                })
                .collect();
            table.row(vec![method.to_owned()], numbers);
        }
        w.table(&table);
    }

    fn first_lookup(&self, w: &mut Writer<'_>) -> Result<(), String> {
        w.line("## The first lookup\n");
        self.measured(w, "first_lookup/");
        w.line(
            "Nothing is initialised at run time: the tables are constants in the binary. \
             `cargo bench --bench first_lookup` starts a fresh process per sample and times \
             its very first rook lookup alone, then, after 999,998 more, the millionth the \
             same way (both include the clock's own cost). *first* pays the operating system \
             for mapping the table's pages on first touch; *first, mapped* maps every page \
             beforehand (`mlockall`) and leaves cold caches and TLB. Nanoseconds, median.\n",
        );
        let builds = self.builds();
        let mut header = vec!["backend".to_owned()];
        for (label, _, _) in &builds {
            for figure in ["first", "first, mapped", "millionth"] {
                header.push(format!("{figure}, {label}"));
            }
        }
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut table = Table::new(&header, 1, Best::Lowest);
        let rows = backend_rows();
        const FIGURES: [&str; 3] = ["first", "first_mapped", "millionth"];
        for row in &rows {
            let numbers = builds
                .iter()
                .flat_map(|(_, _, estimates)| {
                    FIGURES.map(|figure| estimates.ns(&format!("first_lookup/{figure}/{}", row.id)))
                })
                .collect();
            table.row(vec![row.label.clone()], numbers);
        }
        w.table(&table);
        for (label, _, estimates) in &builds {
            if let Some(ns) = estimates.ns("first_lookup/runtime_init/fancy") {
                w.line(&format!(
                    "What run-time initialisation would add to the first lookup instead \
                     ({label}): building the fancy attack table from its magics takes {} ms.\n",
                    short(ns / 1e6)
                ));
            }
        }
        let labels: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
        let series = FIGURES
            .iter()
            .map(|figure| Series {
                label: figure.replace('_', ", "),
                values: rows
                    .iter()
                    .map(|row| {
                        self.default
                            .ns(&format!("first_lookup/{figure}/{}", row.id))
                    })
                    .collect(),
            })
            .collect();
        w.chart(
            "first-lookup.svg",
            &BarChart {
                title: "First and millionth lookup, ns (default build, log scale)",
                unit: "ns, log scale (lower is better)",
                rows: &labels,
                series,
                log: true,
            },
        )
    }

    fn magic_search(&self, w: &mut Writer<'_>) {
        w.line("## Magic search\n");
        self.measured(w, "magic_search/");
        w.line(
            "Finding and verifying a full set (rook and bishop, 64 squares each), single \
             thread, default seed (`cargo bench --bench magic_search`), milliseconds:\n",
        );
        let builds = self.builds();
        let mut header = vec!["scheme"];
        header.extend(builds.iter().map(|(label, _, _)| *label));
        let mut table = Table::new(&header, 1, Best::Lowest);
        for scheme in Scheme::ALL {
            let numbers = builds
                .iter()
                .map(|(_, _, estimates)| {
                    estimates
                        .ns(&format!("magic_search/find_and_verify_{scheme}_1_thread"))
                        .map(|ns| ns / 1e6)
                })
                .collect();
            table.row(vec![scheme.to_string()], numbers);
        }
        w.table(&table);
        w.line(
            "The kept sets, each verified again by this report, with the commands that \
             produced them and the smallest of each kind against the best published tables: \
             [magics/README.md](magics/README.md).\n",
        );
    }

    fn instruction_counts(&self, w: &mut Writer<'_>) {
        if self.instructions.is_empty() {
            return;
        }
        w.line("## Instruction counts (Callgrind)\n");
        w.line(&format!(
            "`cargo bench --features callgrind --bench instructions` (iai-callgrind, default \
             build; valgrind emulates neither AVX-512 nor GFNI, so those backends have no \
             row, and *best* is what detection picks under valgrind). Per lookup: {} random \
             lookups, counts divided by {}. *RAM* is Callgrind's simulated accesses that miss \
             the last-level cache; *cycles* its estimate (L1 hit 1, LL hit 10, RAM 100). \
             Perft: Kiwipete to depth 3 (97,862 leaves), millions.\n",
            thousands(COUNTED_LOOKUPS),
            thousands(COUNTED_LOOKUPS)
        ));
        let mut table = Table::new(
            &[
                "backend",
                "rook instr.",
                "rook RAM",
                "rook cycles",
                "bishop instr.",
                "bishop RAM",
                "bishop cycles",
                "perft instr. (M)",
                "perft cycles (M)",
            ],
            1,
            Best::Lowest,
        );
        let per_lookup = |bench: String, event: &str| {
            self.instructions
                .count(&bench, event)
                .map(|n| n as f64 / COUNTED_LOOKUPS as f64)
        };
        let millions = |bench: String, event: &str| {
            self.instructions
                .count(&bench, event)
                .map(|n| n as f64 / 1e6)
        };
        let ids = Backend::ALL
            .iter()
            .map(|backend| (backend.name().to_owned(), backend.name().replace('-', "_")))
            .chain([("best (detected)".to_owned(), "best".to_owned())]);
        for (label, id) in ids {
            let numbers = vec![
                per_lookup(format!("rook_lookups/{id}"), "Ir"),
                per_lookup(format!("rook_lookups/{id}"), "RamHits"),
                per_lookup(format!("rook_lookups/{id}"), "EstimatedCycles"),
                per_lookup(format!("bishop_lookups/{id}"), "Ir"),
                per_lookup(format!("bishop_lookups/{id}"), "RamHits"),
                per_lookup(format!("bishop_lookups/{id}"), "EstimatedCycles"),
                millions(format!("perft_kiwipete/{id}"), "Ir"),
                millions(format!("perft_kiwipete/{id}"), "EstimatedCycles"),
            ];
            table.row(vec![label], numbers);
        }
        w.table(&table);
        if let Some(ir) = self.instructions.count("magic_search_fancy", "Ir") {
            w.line(&format!(
                "Finding and verifying the full fancy set: {} instructions.\n",
                thousands(ir as usize)
            ));
        }
    }
}
