//! Fuzz targets for the files a user hands tandem: a WAV (`tandem
//! spectrogram`, the corpus's sound checks), a SoundFont (`--soundfont`,
//! read as tandem reads it, then played), and a CD-ROM (`--cdrom`: a CUE
//! sheet with its BIN, or a single image, mounted and unpacked as a run
//! does).

use std::path::Path;

use super::{engine, temp_dir};
use crate::spectrum::{measures, picture, wav_in, Spectrogram};

/// A quarter second of a 440 Hz tone as `--wav` writes it (stereo) and a
/// mono one written by hand.
fn wav_seeds(dir: &Path) -> Vec<Vec<u8>> {
    let p = dir.join("seed.wav");
    let w = crate::play::wav::WavOut::create(&p, 44_100).expect("a WAV");
    let tone: Vec<[i16; 2]> = (0..11_025)
        .map(|i| {
            let v = ((i as f64 * 440.0 / 44_100.0 * std::f64::consts::TAU).sin() * 8000.0) as i16;
            [v, v / 2]
        })
        .collect();
    w.finish(&tone).expect("written");
    let stereo = std::fs::read(&p).expect("the WAV");
    let mut mono = stereo[..44].to_vec();
    mono[22] = 1; // one channel
    mono[28..32].copy_from_slice(&(44_100u32 * 2).to_le_bytes());
    mono[32] = 2; // block align
    let data: Vec<u8> = tone.iter().flat_map(|f| f[0].to_le_bytes()).collect();
    mono[40..44].copy_from_slice(&(data.len() as u32).to_le_bytes());
    mono[4..8].copy_from_slice(&(36 + data.len() as u32).to_le_bytes());
    mono.extend(data);
    vec![stereo, mono]
}

#[test]
fn fuzz_wav() {
    let dir = temp_dir("wav");
    let seeds = wav_seeds(&dir);
    for s in &seeds {
        let sound = wav_in::parse(s).expect("the seed WAV parses");
        assert_eq!(sound.samples.len(), 11_025);
    }
    static DICT: &[&[u8]] = &[
        b"RIFF", b"WAVE", b"fmt ", b"data", b"LIST", &[0xff; 4], &[0; 4],
    ];
    let png = dir.join("out.png");
    engine::run("wav", 0x3a77, seeds, DICT, move |input| {
        // What `tandem spectrogram` does with it.
        if let Ok(sound) = wav_in::parse(input) {
            let spec = Spectrogram::new(&sound);
            let _ = picture::write_png(&png, &spec);
            let _ = measures::judge(&sound, &spec, 0.0);
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chunk: id, size, data.
fn ck(id: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut v = id.to_vec();
    v.extend_from_slice(&(data.len() as u32).to_le_bytes());
    v.extend_from_slice(data);
    v
}

/// A `LIST` of `kind` holding `chunks`.
fn list(kind: &[u8; 4], chunks: &[Vec<u8>]) -> Vec<u8> {
    ck(b"LIST", &[kind.to_vec(), chunks.concat()].concat())
}

/// A 20-byte name.
fn name(n: &str) -> Vec<u8> {
    let mut v = n.as_bytes().to_vec();
    v.resize(20, 0);
    v
}

/// Little-endian 16-bit values.
fn words(w: &[u16]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The smallest whole SoundFont 2 (SoundFont 2.04, section 7): one preset
/// of one instrument of one looped sine sample, with the terminal records
/// each list needs.
fn small_soundfont() -> Vec<u8> {
    let phdr = [
        [name("Sine"), words(&[0, 0, 0]), vec![0; 12]].concat(),
        [name("EOP"), words(&[0, 0, 1]), vec![0; 12]].concat(),
    ]
    .concat();
    let inst = [
        [name("Sine"), words(&[0])].concat(),
        [name("EOI"), words(&[1])].concat(),
    ]
    .concat();
    let sample = |n: &str, start: u32, end: u32, ty: u16| {
        let mut v = name(n);
        for x in [start, end, start + 8, end - 8, 22_050] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        v.extend_from_slice(&[60, 0]);
        v.extend(words(&[0, ty]));
        v
    };
    let shdr = [sample("Sine", 0, 200, 1), sample("EOS", 0, 8, 0)].concat();
    let smpl: Vec<u8> = (0..246)
        .flat_map(|i: i32| {
            let v = if i < 200 { ((i % 25) - 12) * 2000 } else { 0 };
            (v as i16).to_le_bytes()
        })
        .collect();
    let pdta = [
        ck(b"phdr", &phdr),
        ck(b"pbag", &words(&[0, 0, 1, 0])),
        ck(b"pmod", &[0; 10]),
        // Instrument (41) 0; then the terminal generator.
        ck(b"pgen", &words(&[41, 0, 0, 0])),
        ck(b"inst", &inst),
        ck(b"ibag", &words(&[0, 0, 1, 0])),
        ck(b"imod", &[0; 10]),
        // Sample modes (54) looped, sample ID (53) 0, terminal.
        ck(b"igen", &words(&[54, 1, 53, 0, 0, 0])),
        ck(b"shdr", &shdr),
    ];
    let body = [
        b"sfbk".to_vec(),
        list(
            b"INFO",
            &[ck(b"ifil", &words(&[2, 4])), ck(b"INAM", b"fuzz\0\0")],
        ),
        list(b"sdta", &[ck(b"smpl", &smpl)]),
        list(b"pdta", &pdta),
    ]
    .concat();
    ck(b"RIFF", &body)
}

#[test]
fn fuzz_soundfont() {
    use rustysynth::{Synthesizer, SynthesizerSettings};
    let dir = temp_dir("sf2");
    let file = dir.join("fuzz.sf2");
    let seed = small_soundfont();
    std::fs::write(&file, &seed).expect("write");
    let font = crate::play::sound::midi::read(&file).expect("the seed SoundFont loads");
    assert_eq!(font.get_presets().len(), 1);
    static DICT: &[&[u8]] = &[
        b"LIST",
        b"RIFF",
        b"smpl",
        b"phdr",
        b"shdr",
        b"igen",
        b"pgen",
        &[0xff; 4],
        &[0; 4],
        &[0xfe, 0xff, 0xff, 0xff],
    ];
    engine::run("soundfont", 0x5f2b, vec![seed], DICT, move |input| {
        std::fs::write(&file, input).expect("write");
        // As `--soundfont` reads it; one that loads is played as the
        // MPU-401's synthesizer plays it (midi.rs).
        let Ok(font) = crate::play::sound::midi::read(&file) else {
            return;
        };
        let Ok(mut synth) = Synthesizer::new(&font, &SynthesizerSettings::new(44_100)) else {
            return;
        };
        synth.process_midi_message(0, 0xC0, 0, 0);
        synth.process_midi_message(0, 0x90, 60, 100);
        let (mut l, mut r) = (vec![0f32; 512], vec![0f32; 512]);
        synth.render(&mut l, &mut r);
        synth.process_midi_message(0, 0x80, 60, 0);
        synth.render(&mut l, &mut r);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// A raw (2352-byte) sector of mode 1 holding `data` (sync, header, data;
/// the error codes left zero: the reader takes the data as it is).
fn raw_sector(lba: u32, data: &[u8]) -> Vec<u8> {
    let mut s = vec![0u8; 2352];
    s[1..11].fill(0xff);
    let msf = dos::cdrom::Msf::from_lba(lba + 150);
    s[12..15].copy_from_slice(&[msf.m, msf.s, msf.f].map(|x| (x / 10) << 4 | (x % 10)));
    s[15] = 1;
    s[16..16 + data.len().min(2048)].copy_from_slice(&data[..data.len().min(2048)]);
    s
}

/// An ISO 9660 image of a few files in folders (the `mkiso` of the
/// CD-ROM tests).
fn small_iso() -> Vec<u8> {
    use dos::cdrom::mkiso::{build, IsoFile};
    build(
        "FUZZ",
        "COPY.TXT",
        &[
            IsoFile {
                path: "README.TXT",
                data: b"hello",
            },
            IsoFile {
                path: "DATA/LEVEL1.DAT",
                data: &[7; 3000],
            },
            IsoFile {
                path: "COPY.TXT",
                data: b"(c)",
            },
        ],
    )
}

/// The seeds of the CD-ROM target: a kind byte, then for `.iso` and
/// `.bin` the image, for `.cue` the sheet, a NUL and its BIN (a data
/// track in raw sectors, then an audio track).
fn cd_seeds() -> Vec<Vec<u8>> {
    let iso = small_iso();
    let mut bin: Vec<u8> = iso
        .chunks(2048)
        .enumerate()
        .flat_map(|(i, c)| raw_sector(i as u32, c))
        .collect();
    bin.extend(vec![0x11u8; 2352 * 10]);
    let data_sectors = iso.len() / 2048;
    let (m, s, f) = (
        data_sectors / 4500,
        data_sectors / 75 % 60,
        data_sectors % 75,
    );
    let cue = format!(
        "FILE \"D.BIN\" BINARY\n  TRACK 01 MODE1/2352\n    INDEX 01 00:00:00\n  TRACK 02 AUDIO\n    PREGAP 00:02:00\n    INDEX 01 {m:02}:{s:02}:{f:02}\n"
    );
    let mut sheet = vec![2u8];
    sheet.extend_from_slice(cue.as_bytes());
    sheet.push(0);
    sheet.extend_from_slice(&bin);
    vec![
        [vec![0u8], iso].concat(),
        [vec![1u8], bin[..2352 * data_sectors].to_vec()].concat(),
        sheet,
    ]
}

#[test]
fn fuzz_cdrom() {
    use dos::cdrom::{mount_all, Source};
    let dir = temp_dir("cdrom");
    let seeds = cd_seeds();
    static DICT: &[&[u8]] = &[
        b"FILE ",
        b"TRACK ",
        b"INDEX 00 ",
        b"INDEX 01 ",
        b" MODE1/2048",
        b" MODE2/2352",
        b" AUDIO",
        b"PREGAP ",
        b"POSTGAP ",
        b"99:59:74",
        b"\n",
        b"\"",
        b"CD001",
        &[0xff; 4],
    ];
    // Each seed mounts and unpacks.
    let place = {
        let dir = dir.clone();
        move |input: &[u8]| -> Option<std::path::PathBuf> {
            let (&kind, rest) = input.split_first()?;
            let _ = std::fs::remove_file(dir.join("D.BIN"));
            Some(match kind % 3 {
                0 => {
                    let p = dir.join("disc.iso");
                    std::fs::write(&p, rest).expect("write");
                    p
                }
                1 => {
                    let p = dir.join("disc.bin");
                    std::fs::write(&p, rest).expect("write");
                    p
                }
                _ => {
                    let nul = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
                    let p = dir.join("disc.cue");
                    std::fs::write(&p, &rest[..nul]).expect("write");
                    let bin = rest.get(nul + 1..).unwrap_or_default();
                    std::fs::write(dir.join("D.BIN"), bin).expect("write");
                    p
                }
            })
        }
    };
    for s in &seeds {
        let p = place(s).expect("a seed");
        let m = mount_all(&[Source::Image(p.clone())])
            .unwrap_or_else(|e| panic!("the seed {} mounts: {e}", p.display()));
        assert!(m.roots[0].0.join("DATA/LEVEL1.DAT").is_file());
    }
    engine::run("cdrom", 0xcd10, seeds, DICT, move |input| {
        let Some(p) = place(input) else { return };
        // As `--cdrom` mounts it; then every sector of the disc is read,
        // cooked and raw, as MSCDEX would.
        let Ok(m) = mount_all(&[Source::Image(p.clone())]) else {
            return;
        };
        drop(m);
        if let Ok(disc) = dos::cdrom::image::Disc::open(&p) {
            let mut cooked = [0u8; 2048];
            let mut raw = [0u8; 2352];
            for lba in 0..disc.leadout().min(64) {
                let _ = disc.read_cooked(lba, &mut cooked);
                let _ = disc.read_raw(lba, &mut raw);
            }
            let _ = disc.read_cooked(u32::MAX, &mut cooked);
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}
