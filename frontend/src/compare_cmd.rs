//! `tandem compare --profile NAME [PROGRAM] [--seconds S]`: runs the program
//! in lock-step with the models. At every frame (the entry of the
//! program's per-frame update) the clock must have advanced by the IRQ0
//! count times the step immediate, and the parameter table must equal the
//! models. The first divergence stops the run with its frame, clock, slot,
//! expected and actual values, CS:IP and the last instructions executed,
//! disassembled. Exit 0 when everything agrees, 1 on a divergence, 2 on
//! bad input.
//!
//! The last instructions come from a second, deterministic run of the
//! same program and inputs, stepped one instruction at a time up to the
//! divergent frame.
//!
//! Routines whose models do not take part in lock-step (state selection,
//! the parameter lookup, any new model) are spot-checked at each frame
//! point: a few points of their domain run on a copy of the program as it
//! stands, the model reading the same copy ([`models::sweep::spot_check`]).
//! By default every such routine section of the profile; `--routine`
//! names the routines to spot-check instead (any registered model).

use std::collections::VecDeque;
use std::process::ExitCode;

use clap::Args;
use dos::Exit;
use emu::{ExecAt, HookEvent};
use models::compare::{Divergence, LockStep};
use models::model::Point;
use models::profile::Routine;
use models::sweep::{self, Mismatch, Program, Reference};
use models::{GuestMemory, Placement, Profile, Segments};

use crate::error::{report, Error};
use crate::press::{self, Press};
use crate::session::{self, input_error, GoldenArgs, Loaded};

/// Arguments of `tandem compare`.
#[derive(Args, Debug)]
#[command(after_help = crate::exit::HELP)]
// `--bundle` brings its own profile.
#[command(mut_arg("profile", |a| a.required(false).required_unless_present("bundle").default_value("").hide_default_value(true)))]
pub struct CompareArgs {
    #[command(flatten)]
    pub(crate) golden: GoldenArgs,

    /// Emulated seconds to run.
    #[arg(long, value_name = "S", default_value_t = 10)]
    seconds: u64,

    /// Press a key at an emulated time: SECONDS:KEY (e.g. 1.5:p); repeatable.
    #[arg(long = "press", value_name = "S:KEY", long_help = crate::press::LONG_HELP)]
    presses: Vec<String>,

    /// Spot-check this routine at each frame (repeatable; default: the
    /// profile's routines that are not in lock-step).
    #[arg(long = "routine", value_name = "NAME")]
    routines: Vec<String>,

    /// Instructions shown before a divergence.
    #[arg(long, value_name = "N", default_value_t = 16)]
    last: usize,

    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,

    /// Replay the reproduction bundle DIR of `tandem run --check` headless
    /// to its divergence and print its report (docs/check.md).
    #[arg(long, value_name = "DIR")]
    bundle: Option<std::path::PathBuf>,
}

/// One run of the program with the frame hook: returns the divergence (if
/// any) and the frames checked. With `stop_at` the run stops at that frame
/// point instead of checking it (for the replay).
struct Run<'a> {
    profile: &'a Profile,
    reference: &'a Loaded,
    ref_at: Placement,
    /// The routines spot-checked at each frame, with their domains.
    spots: Vec<(Routine, Vec<Point>)>,
}

/// What a run found first.
enum Found {
    /// The lock-step models disagree.
    Lock(Divergence),
    /// A spot-checked routine disagrees with its model.
    Spot(Spot),
}

/// A spot check's mismatch.
struct Spot {
    routine: String,
    frame: u64,
    clock: u16,
    mismatch: Mismatch,
}

/// The routines to spot-check: those named, else the profile's routine
/// sections whose models are not in lock-step; each with its domain.
fn spots(
    profile: &Profile,
    arg: &str,
    names: &[String],
    reference: &Loaded,
    segs: Segments,
) -> Result<Vec<(Routine, Vec<Point>)>, Error> {
    let chosen: Vec<Routine> = if names.is_empty() {
        let all = profile.routine_names();
        let resolved = all.iter().map(|n| session::routine(profile, arg, n));
        let r = resolved.collect::<Result<Vec<_>, _>>()?;
        r.into_iter().filter(|r| !r.model.in_lock_step()).collect()
    } else {
        let r = names.iter().map(|n| session::routine(profile, arg, n));
        r.collect::<Result<Vec<_>, _>>()?
    };
    let reference = Reference {
        mem: reference.memory(),
        segs,
    };
    let mut v = Vec::new();
    for r in chosen {
        if let Ok(d) = sweep::domain(&r, &reference) {
            v.push((r, d));
        }
    }
    Ok(v)
}

impl Run<'_> {
    fn start(
        &self,
        image: &[u8],
        name: &str,
        machine: &hw::MachineConfig,
        presses: &[Press],
    ) -> Result<(Loaded, Placement), Error> {
        let mut s = Loaded::start(image, name, None, machine, b"")?;
        let at = s.place(self.profile, name)?;
        let frame = self.profile.code.frame_update.ok_or_else(|| {
            Error::Input(format!(
                "profile {} does not say where the per-frame update is",
                self.profile.name
            ))
        })?;
        for p in presses {
            for (cycle, key, down) in p.events(machine.cpu_hz, 0) {
                s.session.m.key(cycle, key, down);
            }
        }
        let step = self.profile.code.step_imm.map(|o| at.code(o));
        let table = at.data(self.profile.data.params);
        crate::check::lock_step_hooks(
            s.session.m.cpu.hooks_mut(),
            ExecAt::SegOff(at.code_seg, frame),
            step,
            table,
        );
        Ok((s, at))
    }

    /// Runs to the end or the first divergence.
    fn check(
        &self,
        s: &mut Loaded,
        at: Placement,
        end: u64,
        writers: &mut [(u16, u16); 256],
    ) -> Result<(u64, Vec<u16>, Option<Found>), Error> {
        let table = at.data(self.profile.data.params);
        let baseline = LockStep::table(&self.reference.session.m, self.profile, self.ref_at);
        let mut lock = LockStep::try_new(self.profile.clone(), baseline)?;
        let segs = s.locate(self.profile, "the program")?;
        let step_addr = self.profile.code.step_imm.map(|o| at.code(o));
        let mut step = step_addr.map(|a| s.session.m.read16(a)).unwrap_or(1);
        let mut seen = 0usize;
        let (mut irqs, mut advance) = (0u64, 0u16);
        loop {
            let left = end.saturating_sub(s.session.m.cycles());
            if left == 0 {
                return Ok((lock.frames(), lock.clocks().to_vec(), None));
            }
            match s.session.run_for(left) {
                Exit::HookStop => {}
                // (A session without frame stops or a replay never ends so.)
                Exit::Limit | Exit::Frame | Exit::ReplayEnd => {
                    return Ok((lock.frames(), lock.clocks().to_vec(), None))
                }
                Exit::Exited(code) => {
                    return Err(Error::EndedEarly(format!(
                        "the program exited (code {code}) after {} frames",
                        lock.frames()
                    )))
                }
                Exit::Stopped(why) => return Err(Error::Stopped(why)),
            }
            let log = s
                .session
                .m
                .cpu
                .hooks
                .as_ref()
                .map(|h| &h.log[seen..])
                .unwrap_or(&[]);
            let mut frame_point = false;
            for r in log {
                match r.event {
                    HookEvent::Interrupt { vector: 8, .. } => {
                        irqs += 1;
                        advance = advance.wrapping_add(step);
                    }
                    HookEvent::MemWrite { linear, size, .. } => {
                        if (table..table + 512).contains(&linear) {
                            for b in 0..size as u32 {
                                let slot = (linear + b - table) / 2;
                                if slot < 256 {
                                    writers[slot as usize] = (r.cs, r.ip);
                                }
                            }
                        } else {
                            step = step_addr.map(|a| s.session.m.read16(a)).unwrap_or(step);
                        }
                    }
                    HookEvent::Exec { .. } => frame_point = true,
                    _ => {}
                }
            }
            seen += log.len();
            if !frame_point {
                continue;
            }
            let frame = lock.frames();
            if let Err(d) = lock.check(
                &s.session.m,
                at,
                &self.reference.session.m,
                self.ref_at,
                irqs,
                advance,
            ) {
                return Ok((lock.frames(), lock.clocks().to_vec(), Some(Found::Lock(d))));
            }
            if let Some(spot) = self.spot(s, segs, frame)? {
                return Ok((
                    lock.frames(),
                    lock.clocks().to_vec(),
                    Some(Found::Spot(spot)),
                ));
            }
            irqs = 0;
            advance = 0;
        }
    }
}

impl Run<'_> {
    /// Spot-checks every chosen routine on a copy of the program as it
    /// stands at frame point `frame`.
    fn spot(&self, s: &Loaded, segs: Segments, frame: u64) -> Result<Option<Spot>, Error> {
        if self.spots.is_empty() {
            return Ok(None);
        }
        let mut cpu = s.session.m.cpu.clone();
        cpu.hooks = None;
        let program = Program {
            cpu: &cpu,
            mem: s.memory(),
            segs,
        };
        for (r, domain) in &self.spots {
            if let Some(m) = sweep::spot_check(r, &program, domain, frame)? {
                return Ok(Some(Spot {
                    routine: r.name.clone(),
                    frame,
                    clock: s
                        .session
                        .m
                        .read16(segs.linear(models::profile::Seg::Code, self.profile.code.clock)),
                    mismatch: m,
                }));
            }
        }
        Ok(None)
    }
}

/// Replays up to frame point `frame` and returns the last `n` instructions
/// before it, disassembled, with CS:IP at the frame point.
fn last_instructions(
    run: &Run,
    image: &[u8],
    name: &str,
    machine: &hw::MachineConfig,
    presses: &[Press],
    frame: u64,
    n: usize,
) -> Result<(String, Vec<String>), Error> {
    let (mut s, _) = run.start(image, name, machine, presses)?;
    let mut frames = 0u64;
    // Run at full speed to the frame before, then step.
    while frames < frame {
        match s.session.run_for(u64::MAX / 4) {
            Exit::HookStop
                if s.session.m.cpu.hooks.as_ref().is_some_and(|h| {
                    h.stopped
                        .is_some_and(|r| matches!(r.event, HookEvent::Exec { .. }))
                }) =>
            {
                frames += 1
            }
            Exit::HookStop => {}
            other => {
                return Err(Error::EndedEarly(format!(
                    "the replay ended early: {other:?}"
                )))
            }
        }
    }
    let mut ring: VecDeque<String> = VecDeque::new();
    loop {
        let cs = s.session.m.cpu.regs.seg[1];
        let ip = s.session.m.cpu.regs.ip as u16;
        let lin = ((cs as u32) << 4) + ip as u32;
        let bytes: Vec<u8> = (0..15).map(|i| s.session.m.peek8(lin + i)).collect();
        let before = s.session.m.cycles();
        match s.session.run_for(1) {
            Exit::HookStop => {
                if s.session.m.cpu.hooks.as_ref().is_some_and(|h| {
                    h.stopped
                        .is_some_and(|r| matches!(r.event, HookEvent::Exec { .. }))
                }) {
                    let at = format!(
                        "{:04X}:{:04X}",
                        s.session.m.cpu.regs.seg[1], s.session.m.cpu.regs.ip
                    );
                    return Ok((at, ring.into_iter().collect()));
                }
            }
            Exit::Limit => {}
            other => {
                return Err(Error::EndedEarly(format!(
                    "the replay ended early: {other:?}"
                )))
            }
        }
        if s.session.m.cycles() != before {
            ring.push_back(format!(
                "{cs:04X}:{ip:04X}  {}",
                emu::disasm::disasm16(&bytes, ip as u32)
            ));
            if ring.len() > n {
                ring.pop_front();
            }
        }
    }
}

/// Runs `tandem compare`.
pub fn run(args: &CompareArgs) -> ExitCode {
    if let Some(dir) = &args.bundle {
        return crate::check::bundle::replay(dir, args.json);
    }
    let g = match session::golden_setup(&args.golden) {
        Ok(g) => g,
        Err(e) => return report("compare", &e),
    };
    let (profile, image, name, ref_at) = (&g.profile, &g.image, &g.name, g.ref_at);
    let reference = &g.reference;
    let hz = args.golden.machine().cpu_hz;
    let presses = match press::parse_all(&args.presses) {
        Ok(v) => v,
        Err(e) => return input_error("compare", e),
    };
    let spots = match spots(
        profile,
        &args.golden.profile,
        &args.routines,
        reference,
        g.ref_segs,
    ) {
        Ok(v) => v,
        Err(e) => return report("compare", &e),
    };
    let run = Run {
        profile,
        reference,
        ref_at,
        spots,
    };
    let (mut s, at) = match run.start(image, name, &args.golden.machine(), &presses) {
        Ok(x) => x,
        Err(e) => return report("compare", &e),
    };
    let end = args.seconds.saturating_mul(hz);
    let mut writers = [(0u16, 0u16); 256];
    let (frames, clocks, divergence) = match run.check(&mut s, at, end, &mut writers) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("tandem compare: stopped: {name}: {e}");
            return ExitCode::from(e.exit_code());
        }
    };
    let Some(d) = divergence else {
        if args.json {
            println!(
                "{}",
                serde_json::json!({"profile": profile.name, "program": name, "frames": frames, "seconds": args.seconds, "clocks": clocks, "divergence": null})
            );
        } else {
            println!("{name} (profile {}): {frames} frames over {} emulated seconds agree with the models", profile.name, args.seconds);
            println!("0 divergences");
        }
        return ExitCode::SUCCESS;
    };
    let d = match d {
        Found::Lock(d) => d,
        Found::Spot(spot) => return report_spot(args, profile, name, frames, &spot),
    };
    let (cs_ip, last) = last_instructions(
        &run,
        image,
        name,
        &args.golden.machine(),
        &presses,
        d.frame,
        args.last,
    )
    .unwrap_or_else(|e| {
        (
            format!(
                "{:04X}:{:04X}",
                s.session.m.cpu.regs.seg[1], s.session.m.cpu.regs.ip
            ),
            vec![format!("(replay failed: {e})")],
        )
    });
    let what = match d.slot {
        Some(slot) => format!("slot {slot}"),
        None => "clock".to_string(),
    };
    // The instruction that last wrote the divergent slot.
    let writer = d.slot.map(|slot| {
        let (cs, ip) = writers[slot as usize];
        let lin = ((cs as u32) << 4) + ip as u32;
        let bytes: Vec<u8> = (0..15).map(|i| s.session.m.peek8(lin + i)).collect();
        format!(
            "{cs:04X}:{ip:04X}  {}",
            emu::disasm::disasm16(&bytes, ip as u32)
        )
    });
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "profile": profile.name, "program": name, "frames": frames, "clocks": clocks,
                "divergence": {"frame": d.frame, "clock": d.clock, "slot": d.slot, "expected": d.expected, "actual": d.actual, "what": d.what, "cs_ip": cs_ip, "written_by": writer, "last_instructions": last}
            })
        );
    } else {
        println!(
            "{name} (profile {}): divergence at frame {}, clock {:04X}h, {what}",
            profile.name, d.frame, d.clock
        );
        println!(
            "  {}: expected {} ({:04X}h), actual {} ({:04X}h)",
            d.what, d.expected, d.expected as u16, d.actual, d.actual as u16
        );
        if let Some(w) = &writer {
            println!("  last written by {w}");
        }
        println!("  at {cs_ip} (the frame point); the last instructions before it:");
        for l in &last {
            println!("    {l}");
        }
        println!("1 divergence");
    }
    ExitCode::from(crate::exit::CHECK_FAILED)
}

/// Reports a spot-checked routine's mismatch (exit 1).
fn report_spot(
    args: &CompareArgs,
    profile: &Profile,
    name: &str,
    frames: u64,
    d: &Spot,
) -> ExitCode {
    let m = &d.mismatch;
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "profile": profile.name, "program": name, "frames": frames,
                "divergence": {"frame": d.frame, "clock": d.clock, "slot": null, "routine": d.routine,
                    "input": m.input, "output": m.output, "expected": m.expected, "actual": m.actual,
                    "what": format!("routine {} at {}: {} differs", d.routine, m.input, m.output)}
            })
        );
    } else {
        println!(
            "{name} (profile {}): divergence at frame {}, clock {:04X}h, routine {}",
            profile.name, d.frame, d.clock, d.routine
        );
        println!(
            "  at {}: {}: expected {} ({:04X}h), actual {} ({:04X}h)",
            m.input, m.output, m.expected, m.expected as u16, m.actual, m.actual as u16
        );
        println!("1 divergence");
    }
    ExitCode::from(crate::exit::CHECK_FAILED)
}
