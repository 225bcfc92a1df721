//! The Devices view's data: the VGA's registers and palette, the PIT's
//! channels, the PICs, the OPL3's voices, the Sound Blaster's DSP and DMA
//! channels, and DOS's open files and memory arena, as one JSON object.
//!
//! The page asks for it several times a second, so it is read straight
//! from the devices' state: nothing is rendered, no port is read (reads
//! have side effects: a DAC data read moves its index, a status read
//! clears flags) and nothing changes (the function takes `&Debugger`).
//! Guest memory (the MCB chain, the job file table) may hold anything:
//! every walk is bounded and reads with the loader's `peek`.

use serde_json::{json, Value};

use hw::sb16::dsp::Rate;
use hw::Machine;

use crate::debug::engine::Debugger;

/// The most MCBs the arena walk reads before it gives up.
const MAX_BLOCKS: usize = 1000;

/// Owner word of a free block.
const OWNER_FREE: u16 = 0;

/// The devices as JSON: `vga`, `pit`, `pic`, `opl`, `sb` and `dos` (see
/// the module doc).
pub fn devices(d: &Debugger) -> Value {
    let m = &d.core.m;
    json!({
        "vga": vga(m),
        "pit": pit(m),
        "pic": pic(m),
        "opl": opl(m),
        "sb": sb(m),
        "dos": dos(d),
    })
}

/// The VGA: mode, register blocks, the DAC and the frame's size.
fn vga(m: &Machine) -> Value {
    let v = &m.bus.vga;
    let (width, height) = hw::vga::render::size(v);
    let dac: Vec<[u8; 3]> = (0..=255u8).map(|i| v.dac.entry_rgb(i)).collect();
    json!({
        "bios_mode": m.peek8(0x449),
        "misc": v.misc,
        "width": width,
        "height": height,
        "chain4": v.seq.chain4(),
        "graphics": v.gc.graphics(),
        "sequencer": v.seq.regs.to_vec(),
        "crtc": v.crtc.regs.to_vec(),
        "graphics_regs": v.gc.regs.to_vec(),
        "attribute": v.attr.regs.to_vec(),
        "dac": dac,
        "dac6": v.dac.entries,
        "pel_mask": v.dac.pel_mask,
        "dac_write_index": v.dac.write_index(),
        "start_address": v.crtc.start_address(),
        "latched_start": v.latched_start(),
        "offset": v.crtc.offset(),
        "line_compare": v.crtc.line_compare(),
        "frames": v.frames(),
    })
}

/// The PIT's channels as of now. The counters catch up lazily (when a
/// port is touched or an edge is due), so a copy of the PIT (a few dozen
/// bytes) is brought to the current cycle: the real one is left alone.
fn pit(m: &Machine) -> Value {
    let mut p = m.bus.pit.clone();
    p.advance_to(m.cycles());
    let pit_hz = m.config().pit_hz as f64;
    let channels: Vec<Value> = p
        .channels
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let reload = c.reload();
            json!({
                "channel": i,
                "mode": c.mode(),
                "bcd": c.bcd(),
                "reload": reload,
                "count": c.count(),
                "rate_hz": pit_hz / reload.max(1) as f64,
                "out": c.out(),
                "gate": c.gate(),
                "edges": c.rising_edges(),
            })
        })
        .collect();
    json!({ "channels": channels, "pit_hz": m.config().pit_hz })
}

/// The two 8259As and the requests that would be delivered.
fn pic(m: &Machine) -> Value {
    let p = &m.bus.pics;
    let chips: Vec<Value> = [("master", &p.master), ("slave", &p.slave)]
        .into_iter()
        .map(|(name, c)| {
            json!({
                "name": name, "vector_base": c.vector_base(), "imr": c.imr,
                "irr": c.irr, "isr": c.isr, "lines": c.lines(),
            })
        })
        .collect();
    json!({ "chips": chips, "pending": pending_irqs(&p.master, &p.slave) })
}

/// IRQs requested (IRR) and not masked (IMR), ascending. The master's
/// cascade input is the slave's output, not an IRQ of its own; the
/// slave's requests reach the CPU only through the master's IR2, so they
/// count only while IR2 is unmasked (8259A datasheet, "Cascading").
fn pending_irqs(master: &hw::pic::Pic8259, slave: &hw::pic::Pic8259) -> Vec<u8> {
    let mut v: Vec<u8> = (0..8u8)
        .filter(|&i| master.irr & !master.imr & (1 << i) != 0 && !master.is_cascade(i))
        .collect();
    if master.imr & 0x04 == 0 {
        v.extend(
            (0..8u8)
                .filter(|&i| slave.irr & !slave.imr & (1 << i) != 0)
                .map(|i| 8 + i),
        );
    }
    v
}

/// The OPL3's 18 two-operator channels: key-on, F-number and block.
fn opl(m: &Machine) -> Value {
    let o = &m.bus.opl;
    let cfg = m.config();
    let voices: Vec<Value> = (0..18u8)
        .map(|ch| {
            let (bank1, i) = (ch >= 9, ch % 9);
            let lo = o.reg(bank1, 0xA0 + i);
            let hi = o.reg(bank1, 0xB0 + i);
            let fnum = (hi as u16 & 3) << 8 | lo as u16;
            let block = hi >> 2 & 7;
            json!({
                "channel": ch, "key_on": hi & 0x20 != 0, "fnum": fnum, "block": block,
                "hz": note_hz(fnum, block),
            })
        })
        .collect();
    json!({
        "fitted": cfg.adlib || cfg.sb16.is_some(),
        // Bank 1 register 05h bit 0: NEW, the OPL3 mode (YMF262 datasheet).
        "opl3": o.reg(true, 0x05) & 1 != 0,
        // Bank 1 register 04h bits 5-0: the 4-operator pairs enabled.
        "four_op": o.reg(true, 0x04) & 0x3F,
        "voices": voices,
    })
}

/// A channel's note frequency: F-number = f * 2^(20 - block) / fs, with fs
/// the 49,716 Hz sample rate (14.31818 MHz / 288; YMF262 datasheet,
/// "F-NUMBER").
fn note_hz(fnum: u16, block: u8) -> f64 {
    fnum as f64 * hw::opl3::SAMPLE_HZ as f64 / (1u32 << (20 - block.min(7) as u32)) as f64
}

/// The Sound Blaster 16: its jumpers, the DSP's transfer and its two DMA
/// channels.
fn sb(m: &Machine) -> Value {
    let sb = &m.bus.sb16;
    let c = sb.config();
    let dma = &m.bus.dma;
    let channels: Vec<Value> = [c.dma8, c.dma16]
        .into_iter()
        .map(|ch| {
            let ch = ch as usize & 7;
            json!({
                "channel": ch, "address": dma.current_address(ch), "count": dma.current_count(ch),
                "base_address": dma.base_address(ch), "base_count": dma.base_count(ch),
                "page": dma.page(ch), "mode": dma.mode(ch), "masked": dma.masked(ch),
                "auto_init": dma.auto_init(ch), "physical": dma.physical_address(ch),
            })
        })
        .collect();
    json!({
        "fitted": sb.fitted(), "base": c.base, "irq": c.irq, "dma8": c.dma8, "dma16": c.dma16,
        "dsp": dsp(sb), "dma": channels,
    })
}

/// The DSP: its programmed rate and the transfer in progress, if any.
fn dsp(sb: &hw::sb16::Sb16) -> Value {
    let dsp = sb.dsp();
    let time_constant = match dsp.rate {
        Rate::TimeConstant(tc) => Some(tc),
        Rate::Hz(_) => None,
    };
    let (num, den) = dsp.rate.per_second();
    let mut v = json!({
        "mode": "idle", "playing": false, "rate_hz": num as f64 / den.max(1) as f64,
        "time_constant": time_constant, "speaker": dsp.speaker, "high_speed": dsp.high_speed,
        "level": sb.level(),
    });
    if let Some(p) = sb.playback() {
        let (num, den) = p.frame_rate();
        let mode = match (p.is_silence(), p.mode.bits16) {
            (true, _) => "silence",
            (false, false) => "dma8",
            (false, true) => "dma16",
        };
        let more = json!({
            "mode": mode, "playing": !p.paused, "paused": p.paused,
            "rate_hz": num as f64 / den.max(1) as f64,
            "bits": if p.mode.bits16 { 16 } else { 8 }, "stereo": p.mode.stereo,
            "signed": p.mode.signed, "auto": p.mode.auto, "block": p.mode.block,
            "left": p.left(), "exit_auto": p.exit_auto,
        });
        if let (Value::Object(a), Value::Object(b)) = (&mut v, more) {
            a.extend(b);
        }
    }
    v
}

/// DOS: the current process's open handles and the memory arena.
fn dos(d: &Debugger) -> Value {
    let m = &d.core.m;
    let dos = &d.core.dos;
    let files: Vec<Value> = dos
        .open_files(m)
        .into_iter()
        .map(|f| {
            let mode = match f.mode & 7 {
                0 => "r",
                1 => "w",
                _ => "rw",
            };
            json!({
                "handle": f.handle, "sft": f.sft, "name": f.name, "device": f.device,
                "size": f.size, "position": f.position, "mode": mode,
            })
        })
        .collect();
    let first = dos.arena().first;
    let walk = walk_arena(m, first);
    json!({
        "files": files,
        "arena": walk.blocks,
        "arena_error": walk.error,
        "first_mcb": first,
        "psp": dos.current_psp(),
        "free_paragraphs": walk.largest_free,
    })
}

/// What the arena walk found.
struct Walk {
    /// The blocks as JSON, first to last.
    blocks: Vec<Value>,
    /// Why the walk stopped before a 'Z' block, if it did.
    error: Option<String>,
    /// The largest free block, in paragraphs.
    largest_free: u16,
}

/// Walks the MCB chain from `first` as DOS lays it out (byte 0 'M' or
/// 'Z', word 1 the owner, word 3 the size in paragraphs, bytes 8-15 the
/// name): at most [`MAX_BLOCKS`] blocks, stopping at a bad signature or a
/// chain that runs past segment FFFFh.
fn walk_arena(m: &Machine, first: u16) -> Walk {
    let mut w = Walk {
        blocks: Vec::new(),
        error: None,
        largest_free: 0,
    };
    let mut seg = first as u32;
    loop {
        if w.blocks.len() >= MAX_BLOCKS {
            w.error = Some(format!("more than {MAX_BLOCKS} blocks: walk stopped"));
            break;
        }
        if seg > 0xFFFF {
            w.error = Some(format!("the chain runs past 1 MiB (next MCB at {seg:X}h)"));
            break;
        }
        let a = seg << 4;
        let sig = m.peek8(a);
        if sig != b'M' && sig != b'Z' {
            w.error = Some(format!("bad signature {sig:02X}h at MCB {seg:04X}h"));
            break;
        }
        let (owner, size) = (m.peek16(a + 1), m.peek16(a + 3));
        if owner == OWNER_FREE {
            w.largest_free = w.largest_free.max(size);
        }
        w.blocks.push(json!({
            "segment": seg, "owner": owner, "paragraphs": size,
            "name": mcb_name(m, a + 8), "kind": block_kind(m, seg as u16, owner),
        }));
        if sig == b'Z' {
            break;
        }
        seg += 1 + size as u32;
    }
    w
}

/// The MCB's name field (DOS 4+): up to 8 characters before a NUL, empty
/// unless they are all printable ASCII (the field of a block that is not
/// a program's holds whatever was there).
fn mcb_name(m: &Machine, at: u32) -> String {
    let bytes: Vec<u8> = (0..8)
        .map(|i| m.peek8(at + i))
        .take_while(|&b| b != 0)
        .collect();
    if bytes.iter().all(|b| (0x20..0x7F).contains(b)) {
        String::from_utf8_lossy(&bytes).trim_end().to_string()
    } else {
        String::new()
    }
}

/// What the block of MCB `mcb` owned by `owner` is: a program's own block
/// holds its PSP (the owner is the block's segment), an environment is
/// the segment its owner's PSP names at 2Ch.
fn block_kind(m: &Machine, mcb: u16, owner: u16) -> &'static str {
    let seg = mcb.wrapping_add(1);
    match owner {
        OWNER_FREE => "free",
        dos::mcb::OWNER_DOS => "dos",
        o if o == seg => "program",
        o if m.peek16(((o as u32) << 4) + 0x2C) == seg => "environment",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::debug::command::{Budget, Command, RunCmd};

    /// roms/dos/hello.com at its entry on a machine with `config`.
    fn hello_on(config: hw::MachineConfig) -> Debugger {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../roms/dos");
        let image = std::fs::read(root.join("hello.com")).expect("roms/dos/hello.com");
        let mut dos = dos::Dos::new(dos::DosConfig::new(root.clone())).expect("mount");
        let mut m = hw::Machine::new(config);
        dos.install(&mut m);
        dos.load(&mut m, &image, "C:\\HELLO.COM", b"")
            .expect("loads");
        Debugger::new(m, dos, root)
    }

    fn hello() -> Debugger {
        hello_on(hw::MachineConfig::default())
    }

    /// A machine with a Sound Blaster 16 (and so an OPL3).
    fn hello_sb() -> Debugger {
        hello_on(hw::MachineConfig {
            sb16: Some(hw::sb16::Sb16Config::default()),
            ..hw::MachineConfig::default()
        })
    }

    fn rgb(v: &Value) -> [u64; 3] {
        let c = |i: usize| v[i].as_u64().expect("a component");
        [c(0), c(1), c(2)]
    }

    #[test]
    fn dac_entries_show_unmasked_in_both_scales() {
        let mut d = hello();
        let m = &mut d.core.m;
        m.out8(0x3C8, 5);
        for c in [63, 32, 1] {
            m.out8(0x3C9, c);
        }
        // A PEL mask that hides entry 5 from the screen, not from the view.
        m.out8(0x3C6, 0x0A);
        let v = devices(&d);
        let vga = &v["vga"];
        assert_eq!(rgb(&vga["dac6"][5]), [63, 32, 1]);
        // 6 to 8 bits: c << 2 | c >> 4.
        assert_eq!(rgb(&vga["dac"][5]), [255, 130, 4]);
        assert_eq!(vga["pel_mask"], 0x0A);
        assert_eq!(vga["dac"].as_array().map(Vec::len), Some(256));
        assert_eq!(vga["dac6"].as_array().map(Vec::len), Some(256));
        assert_eq!(vga["dac_write_index"], 6);
    }

    #[test]
    fn vga_size_is_the_renderers() {
        let mut d = hello();
        for mode in [0x03, 0x13, 0x12, 0x04] {
            let now = d.core.m.cycles();
            d.core.m.bus.vga.set_mode(mode, now);
            d.core.m.poke8(0x449, mode);
            let v = devices(&d);
            let f = d.core.m.render();
            assert_eq!(v["vga"]["width"], f.width, "mode {mode:02X}h");
            assert_eq!(v["vga"]["height"], f.height, "mode {mode:02X}h");
            assert_eq!(v["vga"]["bios_mode"], mode);
            assert_eq!(v["vga"]["graphics"], mode != 0x03);
            assert_eq!(v["vga"]["chain4"], mode == 0x13);
        }
        let v = devices(&d);
        assert_eq!(v["vga"]["sequencer"].as_array().map(Vec::len), Some(5));
        assert_eq!(v["vga"]["crtc"].as_array().map(Vec::len), Some(25));
    }

    #[test]
    fn pit_channel_2_reports_its_divisor_and_rate() {
        let mut d = hello();
        let m = &mut d.core.m;
        // Channel 2, LSB then MSB, mode 3, binary; 1193 = 04A9h.
        m.out8(0x43, 0xB6);
        m.out8(0x42, 0xA9);
        m.out8(0x42, 0x04);
        let v = devices(&d);
        let ch = &v["pit"]["channels"][2];
        assert_eq!(ch["channel"], 2);
        assert_eq!(ch["mode"], 3);
        assert_eq!(ch["reload"], 1193);
        let hz = ch["rate_hz"].as_f64().expect("a rate");
        assert!((hz - 1_193_182.0 / 1193.0).abs() < 1e-6, "{hz}");
        // A divisor of 0 is 65536: 18.2 Hz.
        let m = &mut d.core.m;
        m.out8(0x43, 0xB6);
        m.out8(0x42, 0);
        m.out8(0x42, 0);
        let ch = &devices(&d)["pit"]["channels"][2];
        assert_eq!(ch["reload"], 65536);
        let hz = ch["rate_hz"].as_f64().expect("a rate");
        assert!((hz - 18.2065).abs() < 1e-3, "{hz}");
    }

    #[test]
    fn pic_pending_leaves_out_masked_requests() {
        let mut d = hello();
        let v = devices(&d);
        assert_eq!(v["pic"]["chips"][0]["vector_base"], 8);
        assert_eq!(v["pic"]["chips"][1]["vector_base"], 0x70);
        let m = &mut d.core.m;
        let imr = m.bus.pics.master.imr;
        m.out8(0x21, imr & !0x08);
        m.bus.pics.set_irq(3, true);
        let pending = |d: &Debugger| devices(d)["pic"]["pending"].clone();
        assert!(pending(&d).as_array().expect("a list").contains(&json!(3)));
        d.core.m.out8(0x21, imr | 0x08);
        assert!(!pending(&d).as_array().expect("a list").contains(&json!(3)));
        assert_eq!(
            devices(&d)["pic"]["chips"][0]["irr"]
                .as_u64()
                .map(|r| r & 8),
            Some(8)
        );
    }

    #[test]
    fn opl_voices_show_key_on_fnum_and_block() {
        let mut d = hello_sb();
        let m = &mut d.core.m;
        let mut reg = |port: u16, r: u8, v: u8| {
            m.out8(port, r);
            m.out8(port + 1, v);
        };
        // Channel 1: F-number 244h, block 4, key on: A4, 440 Hz.
        reg(0x388, 0xA1, 0x44);
        reg(0x388, 0xB1, 0x20 | 4 << 2 | 0x02);
        // Bank 1: NEW, then channel 9 + 2 keyed off with block 3.
        reg(0x38A, 0x05, 0x01);
        reg(0x38A, 0xA2, 0x10);
        reg(0x38A, 0xB2, 3 << 2 | 0x01);
        let v = devices(&d);
        let opl = &v["opl"];
        assert_eq!(opl["fitted"], true);
        assert_eq!(opl["opl3"], true);
        assert_eq!(opl["voices"].as_array().map(Vec::len), Some(18));
        let a4 = &opl["voices"][1];
        assert_eq!(
            (a4["key_on"].clone(), a4["fnum"].clone()),
            (json!(true), json!(0x244))
        );
        assert_eq!(a4["block"], 4);
        let hz = a4["hz"].as_f64().expect("hz");
        assert!((hz - 440.0).abs() < 0.1, "{hz}");
        let v11 = &opl["voices"][11];
        assert_eq!(v11["channel"], 11);
        assert_eq!(
            (v11["key_on"].clone(), v11["fnum"].clone()),
            (json!(false), json!(0x110))
        );
        assert_eq!(v11["block"], 3);
        assert_eq!(devices(&hello())["opl"]["fitted"], false);
    }

    #[test]
    fn sb_shows_its_dma_channels_and_playback() {
        let mut d = hello_sb();
        let m = &mut d.core.m;
        // DMA channel 1: masked, single mode, memory to device, auto-init;
        // address 1234h page 5, count 0FFFh.
        for (port, v) in [
            (0x0A, 0x05),
            (0x0C, 0),
            (0x0B, 0x59),
            (0x02, 0x34),
            (0x02, 0x12),
            (0x03, 0xFF),
            (0x03, 0x0F),
            (0x83, 0x05),
        ] {
            m.out8(port, v);
        }
        // 41h: 22050 Hz; C6h: 8-bit auto-initialized output, mono
        // unsigned, 2048 samples.
        for v in [0x41, 0x56, 0x22, 0xC6, 0x00, 0xFF, 0x07] {
            m.out8(0x22C, v);
        }
        let v = devices(&d);
        let sb = &v["sb"];
        assert_eq!(sb["fitted"], true);
        assert_eq!(
            (sb["base"].clone(), sb["irq"].clone()),
            (json!(0x220), json!(5))
        );
        let ch = &sb["dma"][0];
        assert_eq!(ch["channel"], 1);
        assert_eq!(
            (ch["address"].clone(), ch["base_address"].clone()),
            (json!(0x1234), json!(0x1234))
        );
        assert_eq!(
            (ch["count"].clone(), ch["base_count"].clone()),
            (json!(0x0FFF), json!(0x0FFF))
        );
        assert_eq!(
            (ch["page"].clone(), ch["mode"].clone()),
            (json!(5), json!(0x58))
        );
        assert_eq!(ch["masked"], true);
        assert_eq!(sb["dma"][1]["channel"], 5);
        let dsp = &sb["dsp"];
        assert_eq!(dsp["mode"], "dma8");
        assert_eq!(dsp["playing"], true);
        assert_eq!(
            (dsp["bits"].clone(), dsp["stereo"].clone()),
            (json!(8), json!(false))
        );
        assert_eq!(dsp["rate_hz"].as_f64(), Some(22050.0));
        assert_eq!(dsp["left"], 2048);
        assert_eq!(devices(&hello())["sb"]["dsp"]["mode"], "idle");
    }

    /// Runs `code` at the program's entry until IP is past it.
    fn run_code(d: &mut Debugger, code: &[u8]) {
        let (cs, ip) = d.cs_ip();
        d.write_mem(((cs as u32) << 4) + ip as u32, code);
        let end = ip + code.len() as u16;
        for _ in 0..100 {
            if d.cs_ip() == (cs, end) {
                return;
            }
            d.execute(Command::Run(RunCmd::Step(1, Budget::Seconds(1))))
                .expect("a step");
        }
        panic!("the code did not finish: at {:04X?}", d.cs_ip());
    }

    #[test]
    fn an_open_file_is_listed_with_its_handle_and_sft_entry() {
        let mut d = hello();
        let (cs, ip) = d.cs_ip();
        let name_at = ip + 0x20;
        d.write_mem(((cs as u32) << 4) + name_at as u32, b"HELLO.COM\0");
        let [lo, hi] = name_at.to_le_bytes();
        // MOV AX,3D00h; MOV DX,name; INT 21h: open for reading.
        run_code(&mut d, &[0xB8, 0x00, 0x3D, 0xBA, lo, hi, 0xCD, 0x21]);
        let len = std::fs::metadata(d.mount_path().join("hello.com"))
            .expect("hello.com")
            .len();
        let v = devices(&d);
        let files = v["dos"]["files"].as_array().expect("a list");
        let f = files
            .iter()
            .find(|f| f["device"] == false)
            .unwrap_or_else(|| panic!("the file: {files:?}"));
        let handle = d.reg("ax").expect("ax");
        assert_eq!(f["handle"], handle);
        assert_eq!(f["name"], "C:\\HELLO.COM");
        assert_eq!(
            (f["size"].clone(), f["position"].clone()),
            (json!(len), json!(0))
        );
        assert_eq!(f["mode"], "r");
        // The standard handles are the devices.
        assert_eq!(files[0]["name"], "CON");
        assert_eq!(files[0]["handle"], 0);
    }

    #[test]
    fn the_arena_walk_finds_the_program_and_stops_at_damage() {
        let mut d = hello();
        let psp = d.core.dos.current_psp();
        let v = devices(&d);
        let dos = &v["dos"];
        assert_eq!(dos["psp"], psp);
        assert_eq!(dos["arena_error"], Value::Null);
        let arena = dos["arena"].as_array().expect("a list");
        let own = arena
            .iter()
            .find(|b| b["segment"] == psp - 1)
            .unwrap_or_else(|| panic!("the program's block: {arena:?}"));
        assert_eq!(
            (own["owner"].clone(), own["kind"].clone()),
            (json!(psp), json!("program"))
        );
        assert_eq!(own["name"], "HELLO");
        assert!(arena
            .iter()
            .any(|b| b["kind"] == "environment" && b["owner"] == psp));
        // Damage the program's MCB: the walk stops there, with the reason.
        d.core.m.poke8(((psp as u32) - 1) << 4, b'X');
        let v = devices(&d);
        let err = v["dos"]["arena_error"].as_str().expect("an error");
        assert!(err.contains("signature"), "{err}");
        assert!(v["dos"]["arena"]
            .as_array()
            .expect("a list")
            .iter()
            .all(|b| b["segment"] != psp - 1));
    }

    #[test]
    fn the_arena_walk_is_bounded() {
        let mut d = hello();
        let first = d.core.dos.arena().first as u32;
        // 1200 empty 'M' blocks in a row: the walk stops at 1000.
        for i in 0..1200u32 {
            let a = (first + i) << 4;
            d.core.m.poke8(a, b'M');
            d.core.m.poke16(a + 1, 0);
            d.core.m.poke16(a + 3, 0);
        }
        let v = devices(&d);
        assert_eq!(v["dos"]["arena"].as_array().map(Vec::len), Some(MAX_BLOCKS));
        assert!(v["dos"]["arena_error"].is_string());
    }

    #[test]
    fn reading_the_devices_changes_nothing() {
        let mut d = hello_sb();
        d.core.m.out8(0x43, 0xB6);
        d.core.m.out8(0x42, 0x10);
        d.core.m.out8(0x42, 0x00);
        let before = d.core.m.state_hash();
        let a = devices(&d);
        let b = devices(&d);
        assert_eq!(a, b);
        assert_eq!(d.core.m.state_hash(), before);
    }
}
