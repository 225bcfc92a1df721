//! Options shared by the commands that run a machine: `--cpu` and `--mhz`
//! ([`MachineOpts`]), and those of its DOS: drive C: and the memory
//! managers ([`DosOpts`]).

use std::path::PathBuf;

use clap::Args;
use emu::CpuModel;

/// The CPU model and clock of a machine: the one set of machine options
/// of every command that builds one. Each model's default clock is
/// [`CpuModel::default_hz`]; the default model is the command's own.
#[derive(Args, Debug, Clone, Default)]
pub struct MachineOpts {
    /// CPU model: 8086, 286, 386 or 486; 486-cpuid is a later 486 stepping
    /// with CPUID (signature family 4, model 3, stepping 5) [default: 8086; 386 for the
    /// golden-master commands (call, sweep, compare, trace) and the
    /// built-in replica, which need 186+ instructions].
    #[arg(long, value_name = "MODEL", value_parser = parse_model)]
    pub cpu: Option<CpuModel>,

    /// CPU clock in MHz, up to six decimals [default: the model's own:
    /// 4.772727 for the 8086, 12 for the 286, 33 for the 386 and the 486
    /// (a 486DX-33; `--mhz 66` for a 486DX2-66)]. Emulated
    /// time follows it; the host clock never enters emulation.
    #[arg(long, value_name = "MHZ", value_parser = parse_mhz)]
    pub mhz: Option<u64>,

    /// The x87 coprocessor: none, 387, or auto (what the CPU model had: a
    /// 387 with the 386, the on-chip unit with the 486, none with the 8086
    /// and 286). 387 with a 286 is an 80287XL (Intel's 387 core for the
    /// 286's socket); with a 486 it selects the on-chip unit; an 8086
    /// takes only an 8087, which is not emulated, so 387 with it is an
    /// error [default: auto].
    #[arg(long, value_name = "FPU", value_parser = parse_fpu)]
    pub fpu: Option<FpuChoice>,

    /// The sound cards: a comma-separated list of `adlib` (a YMF262 OPL3
    /// at 388h), `sb16` (a Sound Blaster 16, with its OPL3), `mpu401` (a
    /// Roland MPU-401, UART and intelligent mode, playing General MIDI
    /// through a SoundFont), `gus`
    /// (a Gravis UltraSound with 1 MiB, ULTRASND and ULTRADIR set), or
    /// `none` [default: adlib,sb16,mpu401, as DOSBox has them; a GUS only
    /// when asked, as programs that find one prefer it].
    #[arg(long, value_name = "LIST", value_parser = parse_sound)]
    pub sound: Option<SoundSet>,

    /// Where the Sound Blaster 16 and the MPU-401 sit, written as DOS's
    /// BLASTER variable: A (base, hex: 220/240/260/280), I (IRQ: 2, 5, 7,
    /// 10), D (8-bit DMA: 0, 1, 3), H (16-bit DMA: 5, 6, 7), P (MPU-401
    /// base, hex: 330 or 300), T6; what is left out keeps its default
    /// [default: "A220 I5 D1 H5 P330 T6"]. The program sees the same
    /// string in its BLASTER variable.
    #[arg(long, value_name = "SETTINGS", value_parser = parse_blaster)]
    pub blaster: Option<Blaster>,

    /// Where the Gravis UltraSound sits, written as DOS's ULTRASND
    /// variable: base (hex: 210-260), playback DMA, sampling DMA (1, 3, 5,
    /// 6, 7), GF1 IRQ, MIDI IRQ (2, 3, 5, 7, 11, 12, 15) [default:
    /// "240,3,3,11,11", clear of the Sound Blaster 16's]. The program sees
    /// the same string in its ULTRASND variable.
    #[arg(long, value_name = "SETTINGS", value_parser = parse_ultrasnd)]
    pub ultrasnd: Option<hw::GusConfig>,

    /// Same as listing `adlib` in `--sound` (which has it by default).
    #[arg(long, hide = true)]
    pub adlib: bool,

    /// No game port: port 201h floats at FFh, INT 15h AH=84h answers CF
    /// set and the equipment word says none [default: a game port with two
    /// joysticks, centred].
    #[arg(long)]
    pub no_joystick: bool,

    /// How DOS hands over the first program: msdos (MS-DOS 6.22 with
    /// HIMEM.SYS and DOS=HIGH: free memory from 04AAh, so its PSP near
    /// 04B3h; PSP:0002 A000h; FLAGS 0246h) or dosbox (DOSBox 0.74: PSP at
    /// 0192h, PSP:0002 9FFFh, FLAGS 7202h, Z:\COMMAND.COM), for programs
    /// that depend on DOSBox's [default: msdos].
    #[arg(long, value_name = "LAYOUT", value_parser = parse_dos_layout)]
    pub dos_layout: Option<hw::DosLayout>,
}

/// The cards of `--sound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoundSet {
    /// An AdLib (OPL3 at 388h).
    pub adlib: bool,
    /// A Sound Blaster 16.
    pub sb16: bool,
    /// An MPU-401.
    pub mpu401: bool,
    /// A Gravis UltraSound.
    pub gus: bool,
}

impl Default for SoundSet {
    /// Every card, as DOSBox's default configuration has them.
    fn default() -> SoundSet {
        SoundSet {
            adlib: true,
            sb16: true,
            mpu401: true,
            gus: false,
        }
    }
}

/// Why an option's value cannot be used (clap prints it after the
/// option's name).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// A `--blaster` word with an unknown letter or a bad number.
    #[error("'{0}' is not a BLASTER setting (A220 I5 D1 H5 P330 T6)")]
    BlasterWord(String),
    /// A `--blaster` card type other than the Sound Blaster 16's.
    #[error("'{0}': tandem's card is the Sound Blaster 16 (T6)")]
    BlasterType(String),
    /// Resources the Sound Blaster 16 cannot take.
    #[error("{0}")]
    Sb16(String),
    /// An MPU-401 base the card cannot take.
    #[error("MPU-401 base {0:X}h: 330 or 300")]
    MpuBase(u16),
    /// A `--sound` name that is no card.
    #[error("unknown sound card '{0}': a list of adlib, sb16, mpu401, gus, or none")]
    SoundCard(String),
    /// A `--ultrasnd` that is not five numbers.
    #[error("'{0}' is not an ULTRASND setting (base,dma,dma,irq,irq: 240,3,3,11,11)")]
    Ultrasnd(String),
    /// Resources the Gravis UltraSound cannot take.
    #[error("{0}")]
    Gus(String),
    /// A `--dos-layout` that is no layout.
    #[error("unknown DOS layout '{0}': msdos or dosbox")]
    DosLayout(String),
    /// A `--fpu` that is no choice.
    #[error("unknown FPU '{0}': none, 387 or auto")]
    Fpu(String),
    /// A `--disk-quota` out of range.
    #[error("{0} is not a size in MiB from 0 to 1048576")]
    Quota(String),
    /// A `--cpu` that is no model (the model list's message).
    #[error("{0}")]
    Model(String),
    /// A `--mhz` that is not a decimal figure with at most six decimals.
    #[error("'{0}' is not a clock in MHz (for example 4.77, 12, 33.333333)")]
    Mhz(String),
    /// A `--mhz` out of range.
    #[error("{0} MHz is outside 0.1-1000 MHz")]
    MhzRange(String),
}

/// The settings of `--blaster`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blaster {
    /// The Sound Blaster 16's base, IRQ and DMA channels.
    pub sb16: hw::Sb16Config,
    /// The MPU-401's data port.
    pub mpu_base: Option<u16>,
}

/// Parses `--blaster`: BLASTER-style letters and values, blank-separated.
pub fn parse_blaster(s: &str) -> Result<Blaster, OptionError> {
    let mut b = Blaster::default();
    for word in s.split_whitespace() {
        let (key, value) = word.split_at(word.chars().next().map_or(0, char::len_utf8));
        let hex = || u16::from_str_radix(value, 16).map_err(|_| bad_blaster(word));
        let dec = || value.parse::<u8>().map_err(|_| bad_blaster(word));
        match key.to_ascii_uppercase().as_str() {
            "A" => b.sb16.base = hex()?,
            "I" => b.sb16.irq = dec()?,
            "D" => b.sb16.dma8 = dec()?,
            "H" => b.sb16.dma16 = dec()?,
            "P" => b.mpu_base = Some(hex()?),
            "T" if value == "6" => {}
            "T" => return Err(OptionError::BlasterType(word.into())),
            _ => return Err(bad_blaster(word)),
        }
    }
    b.sb16
        .check()
        .map_err(|e| OptionError::Sb16(e.to_string()))?;
    if let Some(p) = b.mpu_base.filter(|p| ![0x300, 0x330].contains(p)) {
        return Err(OptionError::MpuBase(p));
    }
    Ok(b)
}

fn bad_blaster(word: &str) -> OptionError {
    OptionError::BlasterWord(word.into())
}

/// Parses `--ultrasnd`: ULTRASND's five comma-separated numbers.
pub fn parse_ultrasnd(s: &str) -> Result<hw::GusConfig, OptionError> {
    let bad = || OptionError::Ultrasnd(s.into());
    let words: Vec<&str> = s.split(',').map(str::trim).collect();
    let [base, dma, record_dma, irq, midi_irq] = words[..] else {
        return Err(bad());
    };
    let dec = |w: &str| w.parse::<u8>().map_err(|_| bad());
    let c = hw::GusConfig {
        base: u16::from_str_radix(base, 16).map_err(|_| bad())?,
        dma: dec(dma)?,
        record_dma: dec(record_dma)?,
        irq: dec(irq)?,
        midi_irq: dec(midi_irq)?,
    };
    c.check().map_err(|e| OptionError::Gus(e.to_string()))?;
    Ok(c)
}

/// Parses `--sound`: `none`, or names from adlib, sb16, mpu401, gus.
pub fn parse_sound(s: &str) -> Result<SoundSet, OptionError> {
    let mut set = SoundSet {
        adlib: false,
        sb16: false,
        mpu401: false,
        gus: false,
    };
    if s.trim() == "none" {
        return Ok(set);
    }
    for name in s.split(',').map(str::trim) {
        match name {
            "adlib" => set.adlib = true,
            "sb16" => set.sb16 = true,
            "mpu401" => set.mpu401 = true,
            "gus" => set.gus = true,
            _ => return Err(OptionError::SoundCard(name.into())),
        }
    }
    Ok(set)
}

/// The `--fpu` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpuChoice {
    /// No coprocessor.
    None,
    /// An 80387.
    I387,
    /// What the CPU model had ([`hw::Fpu::auto`]).
    Auto,
}

fn parse_fpu(s: &str) -> Result<FpuChoice, OptionError> {
    match s {
        "none" => Ok(FpuChoice::None),
        "387" => Ok(FpuChoice::I387),
        "auto" => Ok(FpuChoice::Auto),
        _ => Err(OptionError::Fpu(s.into())),
    }
}

impl MachineOpts {
    /// The machine these options describe, `default` being the command's
    /// CPU model when `--cpu` is not given.
    pub fn config(&self, default: CpuModel) -> hw::MachineConfig {
        let cpu = self.cpu.unwrap_or(default);
        let mut config = hw::MachineConfig::with_cpu(cpu, self.mhz.unwrap_or(cpu.default_hz()));
        config.fpu = match self.fpu.unwrap_or(FpuChoice::Auto) {
            FpuChoice::None => hw::Fpu::None,
            // The 486's socket for a coprocessor took the 487SX, itself a
            // whole 486DX: the unit on the chip.
            FpuChoice::I387 if cpu.caps().fpu_on_chip => hw::Fpu::Builtin,
            FpuChoice::I387 => hw::Fpu::I387,
            FpuChoice::Auto => hw::Fpu::auto(cpu),
        };
        let sound = self.sound_set();
        // A Sound Blaster 16 decodes 388h-38Bh for its OPL3 too.
        config.adlib = sound.adlib || sound.sb16;
        let blaster = self.blaster.unwrap_or_default();
        config.sb16 = sound.sb16.then_some(blaster.sb16);
        config.mpu401 = sound.mpu401.then(|| hw::mpu401::Mpu401Config {
            base: blaster.mpu_base.unwrap_or(0x330),
            ..Default::default()
        });
        config.joystick = !self.no_joystick;
        config.gus = sound.gus.then(|| self.ultrasnd.unwrap_or_default());
        config.dos_layout = self.dos_layout.unwrap_or_default();
        config
    }

    /// Why the cards asked for cannot sit together, if they cannot: the
    /// Gravis UltraSound on the Sound Blaster 16's base, interrupt or DMA
    /// channels.
    pub fn card_error(&self, default: CpuModel) -> Option<String> {
        let config = self.config(default);
        let (sb, gus) = (config.sb16?, config.gus?);
        if sb.base == gus.base {
            return Some(format!("the GUS and the SB16 both at {:X}h", gus.base));
        }
        let sb_irq = if sb.irq == 2 { 9 } else { sb.irq };
        let irq = [gus.irq, gus.midi_irq].map(|i| if i == 2 { 9 } else { i });
        if irq.contains(&sb_irq) {
            return Some(format!("the GUS and the SB16 both on IRQ {}", sb.irq));
        }
        let dma = [gus.dma, gus.record_dma];
        let shared = [sb.dma8, sb.dma16].into_iter().find(|d| dma.contains(d));
        shared.map(|d| format!("the GUS and the SB16 both on DMA {d}"))
    }

    /// The cards asked for: `--sound` (every card by default), plus the
    /// AdLib when `--adlib` is given.
    pub fn sound_set(&self) -> SoundSet {
        let mut set = self.sound.unwrap_or_default();
        set.adlib |= self.adlib;
        set
    }

    /// Why `--fpu` cannot be fitted beside `cpu`, if it cannot: a 387 (or
    /// 287XL) needs a 286 or later.
    pub fn fpu_error(&self, cpu: CpuModel) -> Option<String> {
        let no_387 = !cpu.has_extended_memory();
        (self.fpu == Some(FpuChoice::I387) && no_387).then(|| {
            format!(
                "387 with an {}: that CPU takes an 8087, which tandem does not emulate (a 387 needs a 286 or later; --fpu none or auto)",
                cpu.name()
            )
        })
    }
}

/// The DOS of a machine that runs a program (`run`, `debug`).
#[derive(Args, Debug, Clone)]
pub struct DosOpts {
    /// The host folder that is drive C: [default: the program's folder; an
    /// empty temporary folder for the built-in replica].
    #[arg(long, value_name = "DIR")]
    pub mount: Option<PathBuf>,

    /// No XMS driver.
    #[arg(long)]
    pub no_xms: bool,

    /// No EMS (INT 67h).
    #[arg(long)]
    pub no_ems: bool,

    /// How many MiB the program may add to drive C:'s folder; past it its
    /// writes end as on a full disk (INT 21h 36h reports what is left).
    #[arg(long, value_name = "MIB", default_value_t = dos::quota::DEFAULT_QUOTA >> 20,
          value_parser = parse_quota)]
    pub disk_quota: u64,

    /// A CD-ROM image (.iso, .cue with its .bin files, or a raw .bin) in
    /// a drive from D: on, reached through MSCDEX (INT 2Fh 15xxh) and as
    /// read-only files; repeat for a second drive (E:).
    #[arg(long, value_name = "IMAGE")]
    pub cdrom: Vec<PathBuf>,

    /// A host folder served as a CD-ROM's files (read only, after the
    /// --cdrom images' drives; no audio tracks).
    #[arg(long, value_name = "DIR")]
    pub cdrom_dir: Vec<PathBuf>,
}

impl DosOpts {
    /// The DOS these options describe, drive C: being `mount`.
    pub fn config(&self, mount: PathBuf) -> dos::DosConfig {
        let mut cfg = dos::DosConfig::new(mount);
        cfg.xms = !self.no_xms;
        cfg.ems = !self.no_ems;
        cfg.disk_quota = self.disk_quota << 20;
        cfg.cdroms = self.cdroms();
        cfg
    }

    /// The CD-ROM drives in letter order: the images, then the folders.
    pub fn cdroms(&self) -> Vec<dos::cdrom::Source> {
        let images = self.cdrom.iter().cloned().map(dos::cdrom::Source::Image);
        let dirs = self
            .cdrom_dir
            .iter()
            .cloned()
            .map(dos::cdrom::Source::Folder);
        images.chain(dirs).collect()
    }
}

/// `--disk-quota`: whole MiB, 0 (nothing may be written) to 1 TiB.
fn parse_quota(s: &str) -> Result<u64, OptionError> {
    match s.parse::<u64>() {
        Ok(n) if n <= 1 << 20 => Ok(n),
        _ => Err(OptionError::Quota(s.into())),
    }
}

/// Parses `--dos-layout` (and a corpus entry's `dos_layout`).
pub fn parse_dos_layout(s: &str) -> Result<hw::DosLayout, OptionError> {
    hw::DosLayout::from_name(s).ok_or_else(|| OptionError::DosLayout(s.into()))
}

/// Parses `--cpu`.
pub fn parse_model(s: &str) -> Result<CpuModel, OptionError> {
    s.parse()
        .map_err(|e: <CpuModel as std::str::FromStr>::Err| OptionError::Model(e.to_string()))
}

/// Parses a decimal MHz figure into whole Hz without floating point (so
/// `4.772727` is exactly 4,772,727 Hz).
pub fn parse_mhz(s: &str) -> Result<u64, OptionError> {
    let bad = || OptionError::Mhz(s.into());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return Err(bad());
    }
    if frac.len() > 6 || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let whole: u64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| bad())?
    };
    let mut micro: u64 = 0;
    for (i, c) in frac.chars().enumerate() {
        micro += (c as u64 - '0' as u64) * 10u64.pow(5 - i as u32);
    }
    let hz = whole
        .checked_mul(1_000_000)
        .and_then(|h| h.checked_add(micro))
        .ok_or_else(bad)?;
    if !(100_000..=1_000_000_000).contains(&hz) {
        return Err(OptionError::MhzRange(s.into()));
    }
    Ok(hz)
}

#[cfg(test)]
mod tests {
    use super::parse_mhz;

    #[test]
    fn mhz_parses_exactly() {
        assert_eq!(parse_mhz("4.772727"), Ok(4_772_727));
        assert_eq!(parse_mhz("33"), Ok(33_000_000));
        assert_eq!(parse_mhz("12.5"), Ok(12_500_000));
        assert!(parse_mhz("4.7727271").is_err());
        assert!(parse_mhz("fast").is_err());
        assert!(parse_mhz("0.01").is_err());
        assert!(parse_mhz("").is_err());
    }
}
