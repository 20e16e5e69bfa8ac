//! The WCNF run: OLL on a WCNF, from the detected input to `o`, `s` and `v` lines — read the
//! instance (`read`), optimise with an `o` line at every improvement and a `c LB` line at every
//! rise of the lower bound (`optimise`), say why a search stopped and print the statistics
//! (`report`), then check the best model and print the answer (`answer`).

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use grim_maxsat::{Event, MaxSatStatus, Oll, OllOptions, OllStats, VeriPbInput};
use grim_solver::Lit;

use super::{Internal, ModelCheck, Out, Run, RunError, banner, progress_printer, start_timer};
use crate::cli::{sat_exit, table_lines};
use crate::formats::detect::Detected;
use crate::formats::maxsat_output::{self, write_bits, write_cost};
use crate::formats::wcnf::{self, Dialect, Weight};
use crate::formats::{Wcnf, plural};

/// What `model` is for `instance`: its cost, or the first hard clause it falsifies.
fn check_model(instance: &Wcnf, model: &[bool]) -> ModelCheck {
    if let Some(cost) = instance.cost(model) {
        return ModelCheck::Costs(cost);
    }
    let value = |l: &Lit| model.get(l.var().index()).copied().unwrap_or(false) == l.is_positive();
    match instance.hard.iter().position(|c| !c.iter().any(value)) {
        Some(index) => ModelCheck::FalsifiesHard {
            index,
            shown: instance
                .hard
                .get(index)
                .map(|c| c.iter().take(16).copied().collect())
                .unwrap_or_default(),
        },
        None => ModelCheck::Overflows,
    }
}

/// OLL on the WCNF `detected`, with `options`, the output written to `sink` (`o` lines
/// flushed at once). Returns the exit code of the answer: 30 OPTIMUM FOUND, 10 SATISFIABLE
/// (optimality not proven), 20 UNSATISFIABLE, 0 UNKNOWN ([`sat_exit`]).
pub fn run_wcnf(
    ctx: &Run,
    detected: Detected,
    options: OllOptions,
    sink: &mut dyn Write,
) -> Result<u8, RunError> {
    let args = ctx.config;
    if let Some(proof) = &args.proof
        && (args.lrat || args.binary_proof)
    {
        // Silently writing another proof than asked would let a pipeline believe it has one.
        return Err(RunError::ProofForWcnf {
            path: proof.clone(),
        });
    }
    let compression = detected.compression();
    let read = read(ctx, detected)?;
    if let Some(proof) = &args.proof
        && read.old_dialect
    {
        return Err(RunError::ProofOldWcnf {
            path: proof.clone(),
        });
    }
    // The proof file before anything is printed: a path that cannot be written is a usage
    // error, as for a CNF.
    let proof_file = match &args.proof {
        Some(path) => Some(
            std::fs::File::create(path).map_err(|source| RunError::ProofFile {
                path: path.clone(),
                source,
            })?,
        ),
        None => None,
    };
    let instance = &read.instance;
    let mut out = Out {
        w: sink,
        quiet: args.quiet,
    };
    banner(&mut out, ctx, compression)?;
    out.comment(&format!("format: WCNF, {}", read.format))?;
    if let Some(header) = &read.header {
        out.comment(header)?;
    }
    if read.interrupted {
        out.comment("interrupted while reading the input")?;
        return finish_maxsat(&mut out, maxsat_output::Answer::Unknown);
    }
    out.comment(&format!(
        "parsed: {}, {} hard and {} soft clause{}, {}, soft weight {} in {:.2} s",
        plural(instance.num_vars, "variable"),
        instance.hard.len(),
        instance.soft.len(),
        if instance.soft.len() == 1 { "" } else { "s" },
        plural(read.literals, "literal"),
        read.soft_total,
        read.seconds
    ))?;
    ctx.settings(&mut out)?;

    let mut oll = match (&args.proof, proof_file) {
        (Some(path), Some(file)) => {
            out.comment(&format!(
                "proof: VeriPB 3.0 to {} (check: veripb --wcnf INSTANCE {}); off while proving: \
                 at-most-one groups, symmetry unit, branch and bound, \
                 label elimination, term merging, factoring, merging of identical soft clauses",
                path.display(),
                path.display()
            ))?;
            if !matches!(compression, crate::formats::compress::Compression::None) {
                out.comment("proof: veripb reads the uncompressed file")?;
            }
            let input = VeriPbInput::from_clauses(read.order.iter().copied());
            Oll::with_proof(
                instance,
                options,
                Box::new(io::BufWriter::with_capacity(1 << 20, file)),
                input,
            )
        }
        _ => Oll::new(instance, options),
    }
    .map_err(|e| RunError::Internal(Internal::Refused(e)))?;
    let term = oll.terminator();
    (ctx.arm)(&term);
    start_timer(ctx, &term);
    out.comment("solving")?;
    out.w.flush()?;

    let solve_start = Instant::now();
    let (status, bounds) = optimise(ctx, &mut oll, instance, &mut out, solve_start)?;
    if args.proof.is_some() {
        // An optimum claimed with a broken proof would be worse than no proof: say so and stop.
        oll.finish_proof()
            .map_err(|e| RunError::Internal(Internal::ProofWrite(e)))?;
        if !matches!(status, MaxSatStatus::Optimum | MaxSatStatus::Unsatisfiable) {
            out.comment("proof: the search stopped before an answer; it concludes nothing")?;
        }
    }
    let answer = match status {
        MaxSatStatus::Optimum => maxsat_output::Answer::OptimumFound,
        MaxSatStatus::Satisfiable => maxsat_output::Answer::Satisfiable,
        MaxSatStatus::Unsatisfiable => maxsat_output::Answer::Unsatisfiable,
        MaxSatStatus::Unknown => maxsat_output::Answer::Unknown,
    };
    if !args.quiet {
        report(ctx, &oll, &mut out, answer, bounds.lower, solve_start)?;
    }
    if !answer.has_solution() {
        return finish_maxsat(&mut out, answer);
    }
    print_answer(ctx, &oll, instance, &mut out, answer, bounds.printed)
}

/// What reading the WCNF gave: the instance and what the `c` lines say about it.
struct Read {
    instance: Wcnf,
    literals: usize,
    /// A signal or the time limit came while reading.
    interrupted: bool,
    /// The dialect and how it was detected, and the `header: p wcnf …` line (old dialect).
    format: String,
    header: Option<String>,
    soft_total: u64,
    /// Seconds since the start, parsing included.
    seconds: f64,
    /// The file's clauses in order: soft or not, and the literals given (for the proof).
    order: Vec<(bool, usize)>,
    /// The file has a `p wcnf` header (the proof checker reads only the headerless dialect).
    old_dialect: bool,
}

/// Reads the instance, stopping early on a signal or the time limit.
fn read(ctx: &Run, detected: Detected) -> Result<Read, RunError> {
    let reason = detected.reason;
    let mut parser =
        wcnf::Parser::new(detected, ctx.config.parse_options()).map_err(|e| ctx.input_error(e))?;
    let mut instance = Wcnf::default();
    let mut clause = Vec::new();
    let mut literals = 0usize;
    let mut interrupted = false;
    let mut order = Vec::new();
    let keep_order = ctx.config.proof.is_some();
    while let Some(start) = parser
        .next_clause(&mut clause)
        .map_err(|e| ctx.input_error(e))?
    {
        literals += clause.len();
        if keep_order {
            order.push((matches!(start.weight, Weight::Soft(_)), clause.len()));
        }
        match start.weight {
            Weight::Hard => instance.hard.push(clause.clone()),
            Weight::Soft(w) => instance.soft.push((w, clause.clone())),
        }
        if ctx.reading_stopped(parser.num_clauses() as usize, None) {
            interrupted = true;
            break;
        }
    }
    // At most MAX_VARS (2^31 - 1): fits a usize wherever grim builds.
    instance.num_vars = usize::try_from(parser.num_vars()).unwrap_or(usize::MAX);
    for warning in parser.warnings() {
        (ctx.warn)(&warning.with_path(&ctx.path).to_string());
    }
    let dialect = match parser.dialect() {
        Dialect::New => "headerless (2022+)",
        Dialect::Old => "old, with a p wcnf header",
    };
    Ok(Read {
        instance,
        literals,
        interrupted,
        format: format!("{dialect} ({})", reason.describe()),
        header: parser.header().map(|h| {
            format!(
                "header: p wcnf {} {}{} (line {})",
                h.num_vars,
                h.num_clauses,
                h.top.map(|t| format!(" {t}")).unwrap_or_default(),
                h.line
            )
        }),
        soft_total: parser.soft_total(),
        seconds: ctx.start.elapsed().as_secs_f64(),
        order,
        old_dialect: parser.dialect() == Dialect::Old,
    })
}

/// The bounds the run printed: the last cost on an `o` line, and the last lower bound.
struct Bounds {
    printed: Option<u64>,
    lower: u64,
}

/// Runs OLL within the limits, printing an `o` line at every improvement the model backs, a
/// `c LB` line at every rise of the lower bound (and with `-v`, `c bounds` lines and
/// [`progress_printer`]'s `c progress` lines, the bounds passed to the engine's callback
/// through two atomics).
fn optimise(
    ctx: &Run,
    oll: &mut Oll,
    instance: &Wcnf,
    out: &mut Out,
    solve_start: Instant,
) -> Result<(MaxSatStatus, Bounds), RunError> {
    let args = ctx.config;
    let term = oll.terminator();
    // The last cost printed on an `o` line, and the first failure inside the callback (it
    // cannot return one; the search is terminated instead).
    let mut printed: Option<u64> = None;
    let mut lower: u64 = 0;
    let mut failure: Option<RunError> = None;
    let verbose = args.verbose;
    // With -v, a `c progress` line every --progress-interval conflicts of the engine, bounds
    // or no bounds: a long run whose bounds stall still shows it searches. The bounds reach
    // the engine's callback through these two cells (`u64::MAX`: no upper bound yet).
    let shared = Arc::new((AtomicU64::new(0), AtomicU64::new(u64::MAX)));
    if verbose {
        out.w.flush()?;
        let shared = shared.clone();
        oll.set_progress(
            args.progress_interval,
            Some(progress_printer(move |_| {
                let upper = match shared.1.load(Ordering::Relaxed) {
                    u64::MAX => "none".to_string(),
                    u => u.to_string(),
                };
                format!(
                    "lower {}  upper {}",
                    shared.0.load(Ordering::Relaxed),
                    upper
                )
            })),
        );
    }
    let status = oll.solve(ctx.budget(), &mut |event| {
        if failure.is_some() {
            return;
        }
        let result = match event {
            Event::Improved { cost, model } => {
                // Never print an `o` line the model does not back.
                if instance.cost(model) != Some(cost) {
                    failure = Some(RunError::Internal(Internal::BadImprovement {
                        claimed: cost,
                        actual: check_model(instance, model),
                    }));
                    term.terminate();
                    return;
                }
                printed = Some(cost);
                shared.1.store(cost, Ordering::Relaxed);
                let bounds = if verbose {
                    writeln!(
                        out.w,
                        "c bounds: lower {lower}, upper {cost} at {:.2} s",
                        solve_start.elapsed().as_secs_f64()
                    )
                } else {
                    Ok(())
                };
                bounds
                    .and_then(|()| write_cost(&mut out.w, cost))
                    .and_then(|()| out.w.flush())
            }
            Event::LowerBound(lb) => {
                lower = lb;
                shared.0.store(lb, Ordering::Relaxed);
                // The MaxSAT Evaluation's optional lower-bound line, flushed at once like an
                // `o` line so that a harness that kills the run still sees the last one.
                let lb_line = out
                    .comment(&format!("LB {lb}"))
                    .and_then(|()| out.w.flush());
                if let Err(e) = lb_line {
                    failure = Some(RunError::Output(e));
                    term.terminate();
                    return;
                }
                if verbose {
                    let upper = printed.map_or("none".to_string(), |c| c.to_string());
                    writeln!(
                        out.w,
                        "c bounds: lower {lb}, upper {upper} at {:.2} s",
                        solve_start.elapsed().as_secs_f64()
                    )
                    .and_then(|()| out.w.flush())
                } else {
                    Ok(())
                }
            }
        };
        if let Err(e) = result {
            failure = Some(RunError::Output(e));
            term.terminate();
        }
    });
    oll.set_progress(0, None);
    if let Some(failure) = failure {
        return Err(failure);
    }
    Ok((status, Bounds { printed, lower }))
}

/// The `c` lines after the search: why it stopped without a proven answer, how long it
/// took and the lower bound, and the statistics (every counter of OLL's table with `--stats`
/// or `-v`; a summary line otherwise).
fn report(
    ctx: &Run,
    oll: &Oll,
    out: &mut Out,
    answer: maxsat_output::Answer,
    lower: u64,
    solve_start: Instant,
) -> Result<(), RunError> {
    let args = ctx.config;
    if matches!(
        answer,
        maxsat_output::Answer::Satisfiable | maxsat_output::Answer::Unknown
    ) {
        out.comment(&ctx.stop_reason(None).describe())?;
    }
    out.comment(&format!(
        "search took {:.2} s; lower bound {lower}",
        solve_start.elapsed().as_secs_f64()
    ))?;
    let stats = oll.stats();
    let seconds = ctx.start.elapsed().as_secs_f64();
    if args.stats || args.verbose {
        // Every counter of OLL's statistics table; its label column has been 20 wide since
        // the block's first version.
        for line in table_lines(OllStats::TABLE, stats, seconds, 20) {
            writeln!(out.w, "{line}")?;
        }
    } else {
        writeln!(out.w, "c ---- statistics (--stats for every counter) ----")?;
        writeln!(
            out.w,
            "c time {seconds:.2} s, sat calls {}, cores {} (largest {}), totalizers {}, \
             conflicts {}",
            stats.sat_calls, stats.cores, stats.max_core, stats.totalizers, stats.conflicts
        )?;
    }
    Ok(())
}

/// An answer with a solution: the best model checked (its cost recomputed, equal to OLL's
/// and to the last `o` line), then the `o` line if none was printed, the `s` line and the
/// `v` line.
fn print_answer(
    ctx: &Run,
    oll: &Oll,
    instance: &Wcnf,
    out: &mut Out,
    answer: maxsat_output::Answer,
    printed: Option<u64>,
) -> Result<u8, RunError> {
    let Some(model) = oll.best_model() else {
        return Err(RunError::Internal(Internal::NoBestModel(answer)));
    };
    let Some(cost) = instance.cost(model) else {
        return Err(RunError::Internal(Internal::BadBest(check_model(
            instance, model,
        ))));
    };
    if oll.best_cost() != Some(cost) {
        return Err(RunError::Internal(Internal::BestCostMismatch {
            actual: cost,
            claimed: oll.best_cost(),
        }));
    }
    match printed {
        Some(p) if p == cost => {}
        // OLL reported no improvement event for this model (or a worse one last): the `o`
        // line must still carry the cost of the model printed.
        Some(p) if p < cost => {
            return Err(RunError::Internal(Internal::PrintedCostMismatch {
                actual: cost,
                printed: p,
            }));
        }
        _ => write_cost(&mut out.w, cost)?,
    }
    write_maxsat_answer(out, answer)?;
    if !ctx.config.no_model {
        let bits = (0..instance.num_vars).map(|i| model.get(i).copied().unwrap_or(false));
        write_bits(&mut out.w, bits)?;
    }
    out.w.flush()?;
    Ok(maxsat_exit(answer))
}

fn write_maxsat_answer(out: &mut Out, answer: maxsat_output::Answer) -> io::Result<()> {
    maxsat_output::write_answer(&mut out.w, answer)
}

fn maxsat_exit(answer: maxsat_output::Answer) -> u8 {
    match answer {
        maxsat_output::Answer::OptimumFound => sat_exit::OPTIMUM_FOUND,
        maxsat_output::Answer::Satisfiable => sat_exit::SATISFIABLE,
        maxsat_output::Answer::Unsatisfiable => sat_exit::UNSATISFIABLE,
        maxsat_output::Answer::Unknown => sat_exit::UNKNOWN,
    }
}

fn finish_maxsat(out: &mut Out, answer: maxsat_output::Answer) -> Result<u8, RunError> {
    write_maxsat_answer(out, answer)?;
    out.w.flush()?;
    Ok(maxsat_exit(answer))
}
