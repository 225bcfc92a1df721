//! The loader against a million random executables: MZ headers with
//! random fields (sizes, relocation tables, allocation, SS:SP, CS:IP) and
//! random images, plus plain random byte strings. No input may panic;
//! every failure is a `LoadError` value; every success leaves a PSP and
//! blocks owned by it in an intact arena.

use std::time::Instant;

use dos::loader::{load_program, PspInit};
use dos::mcb::{Arena, Strategy};
use dos::{Executable, LoadError};
use hw::{Machine, MachineConfig};

/// xorshift64*: deterministic, no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// A 16-bit field: often small, sometimes extreme.
    fn field(&mut self) -> u16 {
        match self.below(6) {
            0 => 0,
            1 => 0xFFFF,
            2 => self.below(16) as u16,
            3 => self.below(512) as u16,
            _ => self.next() as u16,
        }
    }
}

fn random_file(rng: &mut Rng) -> Vec<u8> {
    let kind = rng.below(10);
    let len = match rng.below(64) {
        0..=7 => rng.below(0x1C) as usize,
        8 => rng.below(70_000) as usize,
        _ => rng.below(1024) as usize,
    };
    let mut f: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
    if kind == 0 || f.len() < 2 {
        return f; // raw bytes (a COM image, or an empty file)
    }
    f[0] = b'M';
    f[1] = if kind == 1 { b'M' } else { b'Z' };
    if kind == 2 {
        f[0] = b'Z';
        f[1] = b'M';
    }
    if f.len() < 0x1C {
        return f; // truncated header
    }
    let mut put = |at: usize, v: u16| {
        f[at..at + 2].copy_from_slice(&v.to_le_bytes());
    };
    // Mostly self-consistent headers, with each field sometimes wild.
    let pages = if rng.below(3) == 0 {
        rng.field()
    } else {
        (len as u16).div_ceil(512).wrapping_add(rng.below(3) as u16)
    };
    let hdr = if rng.below(3) == 0 {
        rng.field()
    } else {
        2 + rng.below(4) as u16
    };
    let relocs = if rng.below(3) == 0 {
        rng.field()
    } else {
        rng.below(8) as u16
    };
    put(
        2,
        rng.field() & if rng.below(2) == 0 { 0x1FF } else { 0xFFFF },
    );
    put(4, pages);
    put(6, relocs);
    put(8, hdr);
    put(0x0A, rng.field());
    put(0x0C, rng.field());
    put(0x0E, rng.field());
    put(0x10, rng.field());
    put(0x14, rng.field());
    put(0x16, rng.field());
    put(0x18, if rng.below(3) == 0 { rng.field() } else { 0x1C });
    // Relocation entries that point into the image most of the time.
    let table = 0x1Cusize;
    for i in 0..(relocs as usize).min(8) {
        let at = table + 4 * i;
        if at + 4 <= f.len() {
            let off = rng.below(len as u64 + 16) as u16;
            f[at..at + 2].copy_from_slice(&off.to_le_bytes());
            f[at + 2..at + 4].copy_from_slice(&[0, 0]);
        }
    }
    f
}

#[test]
fn a_million_random_programs_never_panic() {
    let n: u64 = std::env::var("TANDEM_FUZZ_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let mut m = Machine::new(MachineConfig::default());
    let mut rng = Rng(0x7A4D_E0D0_5EED_0001);
    let init = PspInit {
        parent: 0x0101,
        tail: b" -t X",
        vectors: [(0xF000, 0xE020); 3],
        jft: [0xFF; 20],
    };
    let (mut ok, mut errors) = (0u64, std::collections::BTreeMap::<String, u64>::new());
    let start = Instant::now();
    for _ in 0..n {
        let file = random_file(&mut rng);
        let parsed = Executable::parse(&file);
        let arena = Arena::init(&mut m, 0x0100, 0xA000);
        let strategy = [Strategy::First, Strategy::Best, Strategy::Last][rng.below(3) as usize];
        match load_program(
            &mut m,
            &arena,
            &file,
            b"PATH=C:\\\0",
            "C:\\FUZZ.EXE",
            &init,
            strategy,
            0,
        ) {
            Ok(l) => {
                assert!(parsed.is_ok());
                ok += 1;
                assert_eq!(m.peek16((l.psp as u32) << 4), 0x20CD);
                let blocks = arena.blocks(&mut m).expect("arena intact after a load");
                assert!(blocks.iter().any(|b| b.seg() == l.psp && b.owner == l.psp));
                assert!(blocks.iter().any(|b| b.seg() == l.env && b.owner == l.psp));
            }
            Err(e) => {
                // The parser and the loader agree on malformed files.
                if let Err(pe) = &parsed {
                    assert_eq!(pe, &e);
                }
                assert!(!e.to_string().is_empty());
                let key = match e {
                    LoadError::Empty => "empty",
                    LoadError::TruncatedHeader { .. } => "truncated header",
                    LoadError::BadImageSize { .. } => "bad image size",
                    LoadError::RelocationsPastEnd { .. } => "relocations past end",
                    LoadError::RelocationOutside { .. } => "relocation outside",
                    LoadError::TooLarge { .. } => "too large",
                    LoadError::ComTooLarge(_) => "COM too large",
                    LoadError::Arena => "arena",
                };
                *errors.entry(key.to_string()).or_default() += 1;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!("loader fuzz: {n} programs in {secs:.2} s: {ok} loaded, errors {errors:?}");
    assert!(ok > n / 20, "too few loads: {ok}");
    for k in [
        "truncated header",
        "bad image size",
        "relocations past end",
        "too large",
    ] {
        assert!(errors.get(k).copied().unwrap_or(0) > 0, "no '{k}' case");
    }
}
