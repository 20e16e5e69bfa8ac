//! The CNF run: the engine on a DIMACS CNF, from the detected input to `s` and `v` lines.
//!
//! The clauses are read into grim-sat's own flat copy ([`Clauses`], for the independent model
//! check) and handed to the engine as they come (with LRAT, all at once after reading: the
//! engine numbers the input's clauses first); then one `solve` call within the limits; a SAT
//! answer's model is checked against the copy before it is printed.

use std::io::{BufWriter, Write};
use std::time::Instant;

use grim_solver::{Lit, Options, ProofFormat, Solver, Status, Var};

use super::{Internal, Out, Run, RunError, Stop, banner, progress_printer, start_timer};
use crate::cli::{per_second, sat_exit, stats_lines, stats_summary};
use crate::formats::detect::{Detected, Reason};
use crate::formats::dimacs::Parser;
use crate::formats::solution::{Answer, write_answer, write_model};
use crate::formats::{ParseError, ParseErrorKind, plural};

/// The engine on the DIMACS CNF `detected`, with `options` (the caller turns `check_model`
/// on), the output written to `sink`. Returns the exit code of the answer: 10 SAT, 20 UNSAT,
/// 0 UNKNOWN ([`sat_exit`]).
pub fn run_cnf(
    ctx: &Run,
    detected: Detected,
    options: Options,
    sink: &mut dyn Write,
) -> Result<u8, RunError> {
    let args = ctx.config;
    let mut solver = engine(ctx, options)?;
    let compression = detected.compression();
    let read = read(ctx, detected, &mut solver)?;
    let mut out = Out {
        w: sink,
        quiet: args.quiet,
    };
    banner(&mut out, ctx, compression)?;
    out.comment(&read.header)?;
    if read.interrupted {
        out.comment("interrupted while reading the input")?;
        return finish(&mut out, Answer::Unknown);
    }
    out.comment(&format!(
        "parsed: {}, {}, {} in {:.2} s",
        plural(read.num_vars, "variable"),
        plural(read.own.ends.len(), "clause"),
        plural(read.own.lits.len(), "literal"),
        read.seconds
    ))?;
    ctx.settings(&mut out)?;
    out.comment("solving")?;
    out.w.flush()?;

    let solve_start = Instant::now();
    let (status, stop) = search(ctx, &mut solver, &mut out)?;
    if args.proof.is_some()
        && let Err(e) = solver.flush_proof()
    {
        // An UNSAT claim without its proof would be worse than no claim: say so and stop.
        return Err(RunError::Internal(Internal::ProofWrite(e)));
    }
    let seconds = ctx.start.elapsed().as_secs_f64();
    if !args.quiet {
        if let Some(stop) = stop {
            out.comment(&stop.describe())?;
        }
        out.comment(&format!(
            "search took {:.2} s",
            solve_start.elapsed().as_secs_f64()
        ))?;
        let lines = if args.stats || args.verbose {
            stats_lines(solver.stats(), seconds)
        } else {
            stats_summary(solver.stats(), seconds)
        };
        for line in lines {
            writeln!(out.w, "{line}")?;
        }
    }
    match status {
        Status::Unsat => finish(&mut out, Answer::Unsatisfiable),
        Status::Unknown => finish(&mut out, Answer::Unknown),
        Status::Sat => print_model(ctx, &solver, &read, &mut out),
    }
}

/// The engine with `options`, its proof file (`--proof`, created before any clause is added:
/// the proof is relative to the whole input) and its terminate flag armed (signals, timer).
fn engine(ctx: &Run, options: Options) -> Result<Solver, RunError> {
    let args = ctx.config;
    let mut solver = Solver::with_options(options);
    if let Some(proof_path) = &args.proof {
        let file = std::fs::File::create(proof_path).map_err(|source| RunError::ProofFile {
            path: proof_path.clone(),
            source,
        })?;
        let format = match (args.lrat, args.binary_proof) {
            (false, false) => ProofFormat::Text,
            (false, true) => ProofFormat::Binary,
            (true, false) => ProofFormat::LratText,
            (true, true) => ProofFormat::LratBinary,
        };
        solver.set_proof(Box::new(BufWriter::with_capacity(1 << 20, file)), format);
    }
    let term = solver.terminator();
    (ctx.arm)(&term);
    start_timer(ctx, &term);
    Ok(solver)
}

/// What reading the CNF gave: grim-sat's own copy of the clauses and what the `c` lines say.
struct Read {
    own: Clauses,
    num_vars: usize,
    /// The `header: p cnf …` line.
    header: String,
    /// A signal or the time limit came while reading.
    interrupted: bool,
    /// Seconds since the start, parsing included.
    seconds: f64,
}

/// Reads the clauses into `solver` and into grim-sat's own copy, stopping early on a signal
/// or the time limit.
fn read(ctx: &Run, detected: Detected, solver: &mut Solver) -> Result<Read, RunError> {
    let args = ctx.config;
    let term = solver.terminator();
    let reason = detected.reason;
    let input_error = |error: ParseError| {
        // A headerless file named .cnf that starts with a number may be a new-format WCNF
        // with an unhelpful name: say how to read it as one.
        let hint = (matches!(reason, Reason::Default | Reason::CnfName)
            && matches!(
                error,
                ParseError {
                    kind: ParseErrorKind::MissingHeader,
                    ..
                }
            ))
        .then_some("if this is a headerless WCNF, name it .wcnf or pass --format wcnf");
        RunError::Input {
            path: ctx.path.clone(),
            error,
            hint,
        }
    };
    let mut parser = Parser::new(detected, args.parse_options()).map_err(input_error)?;
    let mut own = Clauses::default();
    let mut clause = Vec::new();
    let mut interrupted = false;
    // LRAT numbers the input's clauses 1, 2, … and the derived ones after them: the engine
    // must know how many there are before the first is added (it derives clauses while they
    // are added), so with LRAT the whole input is read first — the header's count may be
    // wrong — then handed over.
    let lrat = args.lrat && args.proof.is_some();
    while parser
        .next_clause(&mut clause)
        .map_err(input_error)?
        .is_some()
    {
        own.push(&clause);
        if !lrat {
            solver.add_clause(&clause);
        }
        if ctx.reading_stopped(own.ends.len(), Some(&term)) {
            interrupted = true;
            break;
        }
    }
    if lrat && !interrupted {
        solver.reserve_clause_ids(own.ends.len() as u64);
        own.each(|c| solver.add_clause(c));
    }
    for warning in parser.warnings() {
        (ctx.warn)(&warning.with_path(&ctx.path).to_string());
    }
    let header = parser.header();
    Ok(Read {
        header: format!(
            "header: p cnf {} {} (line {})",
            header.num_vars, header.num_clauses, header.line
        ),
        own,
        // At most MAX_VARS (2^31 - 1): fits a usize wherever grim builds.
        num_vars: usize::try_from(parser.num_vars()).unwrap_or(usize::MAX),
        interrupted,
        seconds: ctx.start.elapsed().as_secs_f64(),
    })
}

/// A SAT answer: the engine's model checked against grim-sat's own copy of the clauses, then
/// the `s` line and the `v` lines.
fn print_model(ctx: &Run, solver: &Solver, read: &Read, out: &mut Out) -> Result<u8, RunError> {
    let Some(model) = solver.model() else {
        return Err(RunError::Internal(Internal::NoModel));
    };
    if let Some((index, clause)) = read.own.first_unsatisfied(&model) {
        return Err(RunError::Internal(Internal::FalsifiedClause {
            path: ctx.path.clone(),
            index,
            clause: clause.to_vec(),
        }));
    }
    write_answer(&mut out.w, Answer::Satisfiable)?;
    if !ctx.config.no_model {
        // Declared variables that occur in no clause are not in the engine's model;
        // any value satisfies, and false is printed.
        let lits = (0..read.num_vars).filter_map(|i| {
            let var = Var::new(u32::try_from(i).ok()?)?;
            Some(var.lit(model.get(i).copied().unwrap_or(false)))
        });
        write_model(&mut out.w, lits)?;
    }
    out.w.flush()?;
    Ok(sat_exit::SATISFIABLE)
}

fn finish(out: &mut Out, answer: Answer) -> Result<u8, RunError> {
    write_answer(&mut out.w, answer)?;
    out.w.flush()?;
    Ok(match answer {
        Answer::Satisfiable => sat_exit::SATISFIABLE,
        Answer::Unsatisfiable => sat_exit::UNSATISFIABLE,
        Answer::Unknown => sat_exit::UNKNOWN,
    })
}

/// Runs the engine within the limits: one `solve` call, with `-v` progress lines
/// ([`progress_printer`]); the reason it stopped when it answers UNKNOWN.
fn search(
    ctx: &Run,
    solver: &mut Solver,
    out: &mut Out,
) -> Result<(Status, Option<Stop>), RunError> {
    let args = ctx.config;
    let base_conflicts = solver.stats().conflicts;
    let base_props = solver.stats().propagations;
    if args.verbose {
        out.w.flush()?;
        let mut last = (Instant::now(), base_props);
        solver.set_progress(
            args.progress_interval,
            Some(progress_printer(move |stats| {
                let now = Instant::now();
                let seconds = now.duration_since(last.0).as_secs_f64();
                let tail = format!(
                    "learned {} (deleted {})  propagations/s {:.0}",
                    stats.learned,
                    stats.deleted,
                    per_second(stats.propagations - last.1, seconds)
                );
                last = (now, stats.propagations);
                tail
            })),
        );
    }
    let status = solver.solve(&[], ctx.budget());
    solver.set_progress(0, None);
    if status != Status::Unknown {
        return Ok((status, None));
    }
    let stats = solver.stats();
    let spent = (
        stats.conflicts - base_conflicts,
        stats.propagations - base_props,
    );
    Ok((Status::Unknown, Some(ctx.stop_reason(Some(spent)))))
}

/// grim-sat's own copy of the clauses, flat, for the independent model check.
#[derive(Default)]
pub struct Clauses {
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

impl Clauses {
    /// Appends a clause as read, before the engine simplifies anything: the check must see
    /// what the file said.
    pub fn push(&mut self, clause: &[Lit]) {
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len());
    }

    /// Calls `f` with every clause, in order.
    pub fn each(&self, mut f: impl FnMut(&[Lit])) {
        let mut begin = 0;
        for &end in &self.ends {
            f(self.lits.get(begin..end).unwrap_or(&[]));
            begin = end;
        }
    }

    /// The first clause with no true literal under `model`, with its index.
    pub fn first_unsatisfied(&self, model: &[bool]) -> Option<(usize, &[Lit])> {
        let mut begin = 0;
        for (index, &end) in self.ends.iter().enumerate() {
            let clause = self.lits.get(begin..end).unwrap_or(&[]);
            begin = end;
            let satisfied = clause.iter().any(|l| {
                model
                    .get(l.var().index())
                    .is_some_and(|&value| value != l.is_negative())
            });
            if !satisfied {
                return Some((index, clause));
            }
        }
        None
    }
}
