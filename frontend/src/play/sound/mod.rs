//! The output stage: every sound device of the machine, mixed into 16-bit
//! stereo at one host rate, as a function of emulated time only.
//!
//! Each device becomes a [`Source`] (one file each: [`speaker`], [`opl`],
//! [`sb16`], [`midi`], [`cdaudio`], [`gus`]).
//! A source drains what its device produced up to the machine's present
//! cycle ([`Source::take`]) and adds its value for a run of output samples
//! ([`Source::mix`]). Output sample `n` sits at emulated cycle
//! `n * cpu_hz / rate` ([`Clock`]), so the samples of a run are the same
//! however often the output stage is called: the WAV writer (`--wav`) and
//! the window's SDL queue get the same sound from the same run.
//!
//! The mixer asks only for samples at least [`Mixer::lag_cycles`] (1 ms of
//! emulated time) old, so every source has all it needs for them (the
//! OPL's next sample, the speaker's whole span); [`Mixer::finish`] takes the
//! rest, each source holding its last value.

pub mod cdaudio;
pub mod gus;
pub mod midi;
pub mod opl;
pub mod sb16;
pub mod sdl_queue;
pub mod sf2_riff;
pub mod speaker;

use hw::Machine;

/// One sound source of the machine, as the output stage hears it.
pub trait Source {
    /// Moves the device's output up to the machine's present cycle out of
    /// the machine into the source.
    fn take(&mut self, m: &mut Machine);
    /// Adds the source's stereo value (in i16 range) for output samples
    /// `first .. first + out.len()` to `out`. Calls come in order without
    /// gaps. Unless `end`, every sample asked for lies at least 1 ms of
    /// emulated time before the last [`Source::take`]; at the `end` the
    /// source holds its last value where it lacks data.
    fn mix(&mut self, first: u64, out: &mut [[i32; 2]], end: bool);
}

/// The output rate and the CPU clock: where each output sample is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The CPU's clock in Hz (emulated time is its cycle count).
    pub cpu_hz: u64,
    /// Output samples per second.
    pub rate: u64,
}

impl Clock {
    /// The clock of a machine at `cpu_hz` heard at `rate` Hz.
    pub fn new(cpu_hz: u64, rate: u64) -> Clock {
        Clock {
            cpu_hz: cpu_hz.max(1),
            rate: rate.max(1),
        }
    }

    /// The cycle output sample `n` is at (rounded down).
    pub fn cycle_of(&self, n: u64) -> u64 {
        (u128::from(n) * u128::from(self.cpu_hz) / u128::from(self.rate)) as u64
    }

    /// The first output sample at or after `cycle`.
    pub fn sample_at(&self, cycle: u64) -> u64 {
        (u128::from(cycle) * u128::from(self.rate)).div_ceil(u128::from(self.cpu_hz)) as u64
    }
}

/// Every sound source of a machine, mixed.
pub struct Mixer {
    clock: Clock,
    sources: Vec<Box<dyn Source>>,
    /// The next output sample to produce.
    next: u64,
}

impl Mixer {
    /// Starts hearing `m` at `rate` Hz from its present cycle: one source
    /// per sound device it has (each switches its device's capture on).
    pub fn new(m: &mut Machine, rate: u32) -> Mixer {
        let clock = Clock::new(m.config().cpu_hz, u64::from(rate));
        let mut sources: Vec<Box<dyn Source>> =
            vec![Box::new(speaker::SpeakerSource::new(m, clock))];
        // A Sound Blaster 16 brings its OPL3.
        if m.config().adlib || m.bus.dev.sb16.fitted() {
            sources.push(Box::new(opl::OplSource::new(m, clock)));
        }
        if m.bus.dev.sb16.fitted() {
            sources.push(Box::new(sb16::Sb16Source::new(m, clock)));
        }
        if m.bus.dev.mpu.fitted() {
            sources.push(Box::new(midi::MidiSource::new(m, clock)));
        }
        if !m.bus.dev.cdaudio.drives.is_empty() {
            sources.push(Box::new(cdaudio::CdAudioSource::new(m, clock)));
        }
        if m.bus.dev.gus.fitted() {
            sources.push(Box::new(gus::GusSource::new(m, clock)));
        }
        Mixer {
            clock,
            sources,
            next: clock.sample_at(m.cycles()),
        }
    }

    /// The number of the next output sample (counted from cycle 0).
    pub fn next_sample(&self) -> u64 {
        self.next
    }

    /// The output rate.
    pub fn rate(&self) -> u32 {
        self.clock.rate as u32
    }

    /// How far behind the machine's present the mixer stays: 1 ms.
    pub fn lag_cycles(&self) -> u64 {
        self.clock.cpu_hz / 1000
    }

    /// The samples of the emulated time since the last call, up to 1 ms
    /// before the present.
    pub fn pull(&mut self, m: &mut Machine) -> Vec<[i16; 2]> {
        let limit = m.cycles().saturating_sub(self.lag_cycles());
        // Samples at cycles <= limit.
        let end = self.clock.sample_at(limit + 1);
        self.mix_to(m, end, false)
    }

    /// The rest of the run's samples, up to the present, each source
    /// holding its last value where it lacks data.
    pub fn finish(&mut self, m: &mut Machine) -> Vec<[i16; 2]> {
        let end = self.clock.sample_at(m.cycles());
        self.mix_to(m, end, true)
    }

    fn mix_to(&mut self, m: &mut Machine, end: u64, last: bool) -> Vec<[i16; 2]> {
        for s in &mut self.sources {
            s.take(m);
        }
        if end <= self.next {
            return Vec::new();
        }
        let mut acc = vec![[0i32; 2]; (end - self.next) as usize];
        for s in &mut self.sources {
            s.mix(self.next, &mut acc, last);
        }
        self.next = end;
        acc.iter()
            .map(|f| f.map(|v| v.clamp(i16::MIN.into(), i16::MAX.into()) as i16))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Operator 1 and 2 of channel 0, then F-number 244h block 4 key on
    /// (register, value).
    const A4: [(u8, u8); 10] = [
        (0x20, 0x01),
        (0x40, 0x10),
        (0x60, 0xF0),
        (0x80, 0x77),
        (0x23, 0x01),
        (0x43, 0x00),
        (0x63, 0xF0),
        (0x83, 0x77),
        (0xA0, 0x44),
        (0xB0, 0x32),
    ];

    /// A program that starts a 440 Hz tone on the speaker (PIT channel 2)
    /// and an OPL3 note, then spins.
    fn tone_program() -> Vec<u8> {
        // MOV AL,B6h; OUT 43h,AL; MOV AL,lo; OUT 42h,AL; MOV AL,hi;
        // OUT 42h,AL; IN AL,61h; OR AL,3; OUT 61h,AL (divisor 2712).
        let mut code = vec![
            0xB0, 0xB6, 0xE6, 0x43, 0xB0, 0x98, 0xE6, 0x42, 0xB0, 0x0A, 0xE6, 0x42, 0xE4, 0x61,
            0x0C, 0x03, 0xE6, 0x61,
        ];
        for (r, v) in A4 {
            // MOV DX,388h; MOV AL,r; OUT DX,AL; INC DX; MOV AL,v; OUT DX,AL
            code.extend([0xBA, 0x88, 0x03, 0xB0, r, 0xEE, 0x42, 0xB0, v, 0xEE]);
        }
        code.extend([0xEB, 0xFE]); // JMP $
        code
    }

    /// The first half second of the tone program, pulled every `step`
    /// cycles.
    fn heard(step: u64) -> Vec<[i16; 2]> {
        let mut config = hw::MachineConfig::with_cpu(emu::CpuModel::I386, 33_000_000);
        config.adlib = true;
        let mut m = Machine::new(config);
        m.load_com(&tone_program(), 0x1000).expect("loads");
        let mut mixer = Mixer::new(&mut m, 44_100);
        let mut out = Vec::new();
        while m.cycles() < 16_500_000 {
            let _ = m.run_for(step);
            out.extend(mixer.pull(&mut m));
        }
        out.extend(mixer.finish(&mut m));
        out
    }

    #[test]
    fn the_sound_does_not_depend_on_how_often_it_is_pulled() {
        let a = heard(471_429); // a 70 Hz frame
        let b = heard(123_457);
        let loud = a.iter().filter(|f| f[0].abs() > 1000).count();
        assert!(loud > 5_000, "speaker and OPL are heard: {loud}");
        let n = a.len().min(b.len());
        assert!(a.len().abs_diff(b.len()) < 100, "{} {}", a.len(), b.len());
        let first = (0..n).find(|&i| a[i] != b[i]);
        assert_eq!(
            first,
            None,
            "first difference {:?} of {n}",
            first.map(|i| (a[i], b[i]))
        );
    }

    /// The OPL3 note heard for half a second through a Sound Blaster 16
    /// (written at base+8/9), the mixer's FM volume at 00h (-60 dB) from
    /// 0.25 s: the OPL source follows the FM gain from its cycle.
    #[test]
    fn the_sb16_mixer_sets_the_fm_volume_from_its_cycle() {
        let mut config = hw::MachineConfig::with_cpu(emu::CpuModel::I386, 33_000_000);
        config.sb16 = Some(hw::Sb16Config::default());
        let mut m = Machine::new(config);
        let mut mixer = Mixer::new(&mut m, 44_100);
        for (r, v) in A4 {
            m.out8(0x228, r);
            m.out8(0x229, v);
        }
        m.cpu.cycles = 8_250_000;
        let mut out = mixer.pull(&mut m);
        m.out8(0x224, 0x26);
        m.out8(0x225, 0x00);
        m.cpu.cycles = 16_500_000;
        out.extend(mixer.finish(&mut m));
        let peak = |r: std::ops::Range<usize>| out[r].iter().map(|f| f[0].abs()).max();
        let (before, after) = (peak(2_000..11_000), peak(11_030..22_000));
        assert!(before > Some(2_000), "{before:?}");
        assert!(after < Some(10), "{after:?}");
    }

    #[test]
    fn clock_places_samples() {
        let c = Clock::new(4_772_727, 44_100);
        assert_eq!(c.cycle_of(0), 0);
        assert_eq!(c.cycle_of(44_100), 4_772_727);
        assert_eq!(c.cycle_of(1), 108);
        // sample_at is the inverse of cycle_of on sample boundaries.
        for n in [1u64, 7, 44_099, 1_000_003] {
            assert_eq!(c.sample_at(c.cycle_of(n)), n, "{n}");
            assert_eq!(c.sample_at(c.cycle_of(n) + 1), n + 1, "{n}");
        }
    }
}
