//! The model interface. A model is a Rust description of one routine of
//! the original program: what the routine reads (registers, words named by
//! profile symbols, the clock), what it writes (words, registers), which
//! tables its body reads, and for sweeps its input domain. Its body is
//! plain Rust ([`Model::expect`]). The commands (`call`, `sweep`,
//! `compare`, `trace`) work from this declaration alone, so a new model is
//! one file plus one line in [`crate::registry`] (see `docs/models.md`).

use crate::memory::{GuestMemory, Segments};
use crate::profile::Seg;

/// A CPU register an input or output names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    /// A 16-bit register by its encoding (0 AX, 1 CX, 2 DX, 3 BX, 4 SP,
    /// 5 BP, 6 SI, 7 DI).
    R16(u8),
    /// An 8-bit register by its encoding (0 AL, 1 CL, 2 DL, 3 BL, 4 AH,
    /// 5 CH, 6 DH, 7 BH).
    R8(u8),
}

impl Reg {
    /// AX.
    pub const AX: Reg = Reg::R16(0);
    /// CX.
    pub const CX: Reg = Reg::R16(1);
    /// DX.
    pub const DX: Reg = Reg::R16(2);
    /// BX.
    pub const BX: Reg = Reg::R16(3);
    /// SI.
    pub const SI: Reg = Reg::R16(6);
    /// DI.
    pub const DI: Reg = Reg::R16(7);
    /// AL.
    pub const AL: Reg = Reg::R8(0);
    /// BL.
    pub const BL: Reg = Reg::R8(3);
    /// AH.
    pub const AH: Reg = Reg::R8(4);

    /// The register's name in upper case.
    pub fn name(self) -> &'static str {
        const R16: [&str; 8] = ["AX", "CX", "DX", "BX", "SP", "BP", "SI", "DI"];
        const R8: [&str; 8] = ["AL", "CL", "DL", "BL", "AH", "CH", "DH", "BH"];
        match self {
            Reg::R16(i) => R16[i as usize & 7],
            Reg::R8(i) => R8[i as usize & 7],
        }
    }

    /// Reads the register.
    pub fn get(self, regs: &emu::Registers) -> u16 {
        match self {
            Reg::R16(i) => regs.get16(i),
            Reg::R8(i) => regs.get8(i) as u16,
        }
    }

    /// Writes the register (an 8-bit one takes the low byte).
    pub fn set(self, regs: &mut emu::Registers, v: u16) {
        match self {
            Reg::R16(i) => regs.put16(i, v),
            Reg::R8(i) => regs.put8(i, v as u8),
        }
    }
}

/// A word in memory: a profile symbol (code, data or stack), optionally
/// indexed by one of the routine's values (`params` at `slot`: the word
/// `params + 2 * slot`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The model's name for the symbol (the profile may map it to another).
    pub symbol: &'static str,
    /// A value of the routine section that indexes words from the symbol.
    pub index: Option<&'static str>,
}

impl Place {
    /// The symbol itself.
    pub const fn at(symbol: &'static str) -> Place {
        Place {
            symbol,
            index: None,
        }
    }

    /// Word `index` (a routine value) of the table at `symbol`.
    pub const fn indexed(symbol: &'static str, index: &'static str) -> Place {
        Place {
            symbol,
            index: Some(index),
        }
    }
}

/// What a routine reads, set before each call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A register.
    Reg(Reg),
    /// A memory word.
    Word(Place),
    /// The program's clock word (a memory word that lock-step reads at
    /// every frame point).
    Clock(Place),
}

/// What a routine writes, compared after each call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// A register, unsigned.
    Reg(Reg),
    /// `count` consecutive words from a place, signed when `signed`.
    Words {
        /// The first word.
        place: Place,
        /// How many.
        count: u16,
        /// Read as i16 (else u16).
        signed: bool,
    },
}

impl Output {
    /// Values this output compares.
    pub fn len(&self) -> usize {
        match self {
            Output::Reg(_) => 1,
            Output::Words { count, .. } => *count as usize,
        }
    }

    /// Whether it compares nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A number a routine section may give (a slot, a count), with its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// Its key in the routine section.
    pub name: &'static str,
    /// Its value when the section does not give it.
    pub default: u16,
    /// The largest value allowed.
    pub max: u16,
}

/// A table a sweep fills: `words` words from `place`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fill {
    /// The first word.
    pub place: Place,
    /// How many words.
    pub words: u16,
}

/// Word `k` of a filled table: all different for k < 65,536 (an odd
/// multiplier), and none of them 0.
pub fn fill_word(k: u16) -> u16 {
    k.wrapping_mul(0x9E37).wrapping_add(0x1234) | 1
}

/// A model's declaration: everything the commands need to run the routine
/// and compare it, without knowing the model.
#[derive(Clone, Copy, Debug)]
pub struct Interface {
    /// The code symbol of the routine's entry.
    pub entry: &'static str,
    /// Set before each call, in this order.
    pub inputs: &'static [Input],
    /// Compared after each call, in this order.
    pub outputs: &'static [Output],
    /// Symbols the body reads (tables), besides those of inputs and outputs.
    pub tables: &'static [&'static str],
    /// Tables a sweep fills with a pattern first ([`fill_word`]), in the
    /// program and in what the model reads alike: tables the program fills
    /// only as it runs, which would otherwise be swept as zeros.
    pub fills: &'static [Fill],
    /// Numbers the routine section may give.
    pub values: &'static [Value],
    /// The stream of events the routine emits, when it is checked event
    /// by event ([`crate::events`]).
    pub events: Option<&'static Events>,
}

/// Where a captured value comes from at an event point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    /// A register.
    Reg(Reg),
    /// A memory word.
    Word(Place),
}

/// One value captured at each event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name in reports (`x`, `y`, `command`).
    pub name: &'static str,
    /// Where it is read.
    pub capture: Capture,
    /// Read as i16 (else u16).
    pub signed: bool,
    /// The routine value (a [`Value`] of the interface) that gives its
    /// tolerance, as a plus-or-minus; None: always exact.
    pub tolerance: Option<&'static str>,
}

/// A routine's event stream: an execution address it reaches once per
/// event (a profile code symbol), and what is read there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Events {
    /// The code symbol of the event point.
    pub point: &'static str,
    /// The values captured at each hit, in order.
    pub fields: &'static [Field],
    /// The field that names the command that produced an event (in
    /// reports), if one does.
    pub command: Option<usize>,
}

/// Most fields an event captures.
pub const MAX_FIELDS: usize = 8;

/// One event, as the model expects it or as the program emitted it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Event {
    /// The fields' values, in declaration order.
    pub values: [i64; MAX_FIELDS],
    /// The model says this event must be exact whatever the tolerances (a
    /// static vertex, say).
    pub exact: bool,
}

impl Event {
    /// An event from its values.
    pub fn new(values: &[i64], exact: bool) -> Event {
        let mut e = Event {
            exact,
            ..Event::default()
        };
        e.values[..values.len()].copy_from_slice(values);
        e
    }
}

impl Interface {
    /// Every symbol the model needs, in declaration order, each once.
    pub fn symbols(&self) -> Vec<&'static str> {
        let mut v = vec![self.entry];
        let place = |i: &Input| match i {
            Input::Reg(_) => None,
            Input::Word(p) | Input::Clock(p) => Some(p.symbol),
        };
        v.extend(self.inputs.iter().filter_map(place));
        v.extend(self.outputs.iter().filter_map(|o| match o {
            Output::Reg(_) => None,
            Output::Words { place, .. } => Some(place.symbol),
        }));
        v.extend(self.tables.iter().copied());
        if let Some(e) = self.events {
            v.push(e.point);
            v.extend(e.fields.iter().filter_map(|f| match f.capture {
                Capture::Word(p) => Some(p.symbol),
                Capture::Reg(_) => None,
            }));
        }
        v.extend(self.fills.iter().map(|f| f.place.symbol));
        let mut seen = Vec::new();
        v.retain(|s| {
            let new = !seen.contains(s);
            seen.push(*s);
            new
        });
        v
    }

    /// Values compared per call.
    pub fn output_len(&self) -> usize {
        self.outputs.iter().map(Output::len).sum()
    }
}

/// Most inputs a model may declare.
pub const MAX_INPUTS: usize = 4;
/// Most values a model may compare per call.
pub const MAX_OUTPUTS: usize = 16;

/// One point of a sweep's domain: the inputs' values in declaration order,
/// and a tag the model may use to describe the point (which definition).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Point {
    /// The inputs' values.
    pub values: [u16; MAX_INPUTS],
    /// The model's own note on the point.
    pub tag: u32,
}

impl Point {
    /// A point from its input values.
    pub fn new(values: &[u16]) -> Point {
        let mut p = Point::default();
        p.values[..values.len()].copy_from_slice(values);
        p
    }
}

/// What a model's body sees: a program's memory (the reference, normally)
/// with the routine's symbols resolved in it.
pub struct Ctx<'a> {
    /// The memory.
    pub mem: &'a dyn GuestMemory,
    /// Where the program's segments are.
    pub segs: Segments,
    /// The resolved routine.
    pub routine: &'a crate::profile::Routine,
}

impl Ctx<'_> {
    /// Linear address of `off` bytes past the model's symbol `name`.
    /// A symbol the model did not declare reads as address 0 (the
    /// declaration is checked when the routine is resolved).
    pub fn addr(&self, name: &str, off: u16) -> u32 {
        match self.routine.symbol(name) {
            Some((seg, o)) => self.segs.linear(seg, o.wrapping_add(off)),
            None => 0,
        }
    }

    /// Linear address of the segment holding symbol `name` (offset 0), for
    /// bodies that follow pointers within it.
    pub fn base(&self, name: &str) -> u32 {
        match self.routine.symbol(name) {
            Some((seg, _)) => self.segs.linear(seg, 0),
            None => 0,
        }
    }

    /// The byte at `off` past symbol `name`.
    pub fn read8(&self, name: &str, off: u16) -> u8 {
        self.mem.read8(self.addr(name, off))
    }

    /// The word at `off` past symbol `name`.
    pub fn read16(&self, name: &str, off: u16) -> u16 {
        self.mem.read16(self.addr(name, off))
    }

    /// A value of the routine section (its default when not given).
    pub fn value(&self, name: &str) -> u16 {
        self.routine.value(name)
    }

    /// Where a segment kind is.
    pub fn seg(&self, seg: Seg) -> u16 {
        self.segs.get(seg)
    }
}

/// What a model says at a frame point of a lock-step run.
pub struct FrameInput {
    /// The clock word at the frame point.
    pub clock: u16,
    /// Clock units since the previous frame point.
    pub elapsed: u16,
}

/// A model of one routine. Implementations are unit structs registered in
/// [`crate::registry::MODELS`].
pub trait Model: Sync {
    /// Its name (`fountain`): the routine section's key and `--routine`.
    fn name(&self) -> &'static str;

    /// One line on what it models.
    fn summary(&self) -> &'static str;

    /// Its declaration.
    fn interface(&self) -> &'static Interface;

    /// The sweep's domain, in order; `None` when the model cannot be swept.
    /// The context is the reference program (a domain may come from its
    /// data, as the state selection's definitions do).
    fn domain(&self, ctx: &Ctx) -> Option<Vec<Point>>;

    /// The body: the outputs for `point`, in the order of
    /// [`Interface::outputs`] (words expanded), into `out`.
    fn expect(&self, ctx: &Ctx, point: &Point, out: &mut [i64]);

    /// Describes a point for a report (`clock 0123h`).
    fn describe(&self, _ctx: &Ctx, point: &Point) -> String {
        let mut parts = Vec::new();
        for (i, input) in self.interface().inputs.iter().enumerate() {
            let v = point.values[i];
            parts.push(match input {
                Input::Reg(r) => format!("{} {v:04X}h", r.name()),
                Input::Word(p) | Input::Clock(p) => format!("{} {v:04X}h", p.symbol),
            });
        }
        parts.join(", ")
    }

    /// Names output value `k` for a report: `slot N` for an indexed place,
    /// `SYMBOL+N` for another, the register's name for a register.
    fn output_name(&self, ctx: &Ctx, k: usize) -> String {
        let mut k = k;
        for o in self.interface().outputs {
            if k < o.len() {
                return match o {
                    Output::Reg(r) => r.name().to_string(),
                    Output::Words { place, .. } => match place.index {
                        Some(ix) => format!("{ix} {}", ctx.value(ix) as usize + k),
                        None => format!("{}+{}", place.symbol, 2 * k),
                    },
                };
            }
            k -= o.len();
        }
        format!("output {k}")
    }

    /// The event stream the routine emits for `point` (an
    /// [`Interface::events`] model), in order.
    fn events(&self, _ctx: &Ctx, _point: &Point) -> Vec<Event> {
        Vec::new()
    }

    /// Whether the model takes part in lock-step frames ([`Model::frame`]);
    /// `compare` spot-checks the others at each frame instead.
    fn in_lock_step(&self) -> bool {
        false
    }

    /// Lock-step: the outputs at a frame point into `out` (as
    /// [`Model::expect`]), with `state` the model's own, carried between
    /// frames (0 at the first). `false`: the model does not take part.
    fn frame(&self, _ctx: &Ctx, _at: &FrameInput, _state: &mut i64, _out: &mut [i64]) -> bool {
        false
    }
}
