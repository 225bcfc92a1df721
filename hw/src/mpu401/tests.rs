//! The MPU-401: its ports, UART mode, the intelligent mode's commands
//! and its sequencer's timing.

use super::*;
use crate::scheduler::Event;
use crate::{Machine, MachineConfig};

/// A CPU clock that divides evenly: tempo 120, timebase 120 tick every
/// 100,000 cycles.
const CPU_HZ: u64 = 24_000_000;

fn fitted() -> Mpu401 {
    let mut m = Mpu401::new(Some(Mpu401Config::default()), CPU_HZ);
    m.set_capture(true);
    m
}

#[test]
fn reset_acknowledges_in_the_data_port() {
    let mut m = fitted();
    assert_eq!(m.status() & (STATUS_DSR | STATUS_DRR), STATUS_DSR);
    m.command(CMD_RESET, 0);
    assert_eq!(m.status(), 0x3F, "DSR low: a byte waits, DRR low");
    assert_eq!(m.read_data(), ACK);
    assert_eq!(m.status(), 0xBF, "nothing left to read");
    assert_eq!(m.read_data(), ACK, "the data port keeps its last byte");
}

#[test]
fn uart_mode_logs_midi_bytes_with_their_cycle() {
    let mut m = fitted();
    m.write_data(0x90, 5);
    assert!(m.take_midi().is_empty(), "intelligent mode: not MIDI");
    m.command(CMD_UART, 0);
    assert_eq!(m.read_data(), ACK);
    assert!(m.uart);
    for (i, b) in [0xC0, 0x00, 0x90, 69, 100].into_iter().enumerate() {
        m.write_data(b, 100 + i as u64);
    }
    assert_eq!(
        m.take_midi(),
        vec![(100, 0xC0), (101, 0), (102, 0x90), (103, 69), (104, 100)]
    );
    assert!(m.take_midi().is_empty(), "taken once");
    m.set_capture(false);
    m.write_data(0x80, 200);
    assert!(m.take_midi().is_empty(), "not capturing");
}

#[test]
fn in_uart_mode_only_reset_counts_and_is_not_acknowledged() {
    let mut m = fitted();
    m.command(CMD_UART, 0);
    m.read_data();
    m.command(0xAC, 0);
    assert_eq!(m.status() & STATUS_DSR, STATUS_DSR, "ignored");
    m.command(CMD_RESET, 0);
    assert!(!m.uart);
    assert_eq!(m.status() & STATUS_DSR, STATUS_DSR, "no acknowledge");
    // The second reset of a driver that did not know the mode.
    m.command(CMD_RESET, 0);
    assert_eq!(m.read_data(), ACK);
}

#[test]
fn want_to_send_passes_one_message_to_midi_out() {
    let mut m = fitted();
    m.set_capture(true);
    // Outside UART mode a data byte alone goes nowhere.
    m.write_data(0x90, 1);
    assert!(m.take_midi().is_empty());
    // D0h: one channel message (note on), then nothing more.
    m.command(0xD0, 0);
    for (i, b) in [0x90, 0x3C, 0x64, 0x45].into_iter().enumerate() {
        m.write_data(b, 10 + i as u64);
    }
    assert_eq!(m.take_midi(), [(10, 0x90), (11, 0x3C), (12, 0x64)]);
    // Running status: D0h then only the data bytes.
    m.command(0xD0, 0);
    m.write_data(0x3C, 20);
    m.write_data(0x00, 21);
    assert_eq!(m.take_midi(), [(20, 0x90), (20, 0x3C), (21, 0x00)]);
    // A program change has one data byte.
    m.command(0xD1, 0);
    m.write_data(0xC1, 30);
    m.write_data(0x05, 31);
    m.write_data(0x06, 32);
    assert_eq!(m.take_midi(), [(30, 0xC1), (31, 0x05)]);
    // DFh: an exclusive message to its F7h.
    m.command(0xDF, 0);
    for b in [0xF0, 0x41, 0x10, 0xF7, 0x99] {
        m.write_data(b, 40);
    }
    assert_eq!(
        m.take_midi().iter().map(|&(_, b)| b).collect::<Vec<_>>(),
        [0xF0, 0x41, 0x10, 0xF7]
    );
    let acks = std::iter::from_fn(|| (m.status() & STATUS_DSR == 0).then(|| m.read_data()));
    assert!(acks.take(10).all(|b| b == ACK), "each command acknowledged");
}

#[test]
fn version_and_other_commands() {
    let mut m = fitted();
    m.command(0xAC, 0);
    m.command(0xAD, 0);
    m.command(0x8A, 0); // a sequencer command: acknowledged, ignored
    let got: Vec<u8> =
        std::iter::from_fn(|| (m.status() & STATUS_DSR == 0).then(|| m.read_data())).collect();
    assert_eq!(got, [ACK, 0x15, ACK, 0x01, ACK]);
    assert!(!m.uart);
}

fn machine(config: Option<Mpu401Config>) -> Machine {
    Machine::new(MachineConfig {
        mpu401: config,
        ..MachineConfig::with_cpu(emu::CpuModel::I386, 33_000_000)
    })
}

#[test]
fn ports_at_the_configured_base_only() {
    let mut m = machine(Some(Mpu401Config {
        base: 0x300,
        irq: 9,
    }));
    assert_eq!(m.bus.port_read(0x331), 0xFF);
    assert!(m.bus.unhandled_ports.contains(&0x331));
    assert_eq!(m.bus.port_read(0x301) & 0xC0, 0x80);
    m.bus.port_write(0x301, CMD_RESET);
    assert_eq!(m.bus.port_read(0x301) & 0xC0, 0x00);
    assert_eq!(m.bus.port_read(0x300), ACK);
    let mut none = machine(None);
    none.bus.port_write(0x331, CMD_RESET);
    assert_eq!(none.bus.port_read(0x331), 0xFF);
    assert_eq!(none.bus.port_read(0x330), 0xFF);
    assert!(none.bus.dev.mpu.input.is_empty());
}

#[test]
fn irq_line_follows_a_waiting_byte() {
    for (irq, line) in [(9, Some(9)), (2, Some(9)), (5, Some(5)), (0, None)] {
        let mut m = machine(Some(Mpu401Config { base: 0x330, irq }));
        let level = |m: &Machine| {
            let p = &m.bus.dev.pics;
            line.map(|l| {
                if l < 8 {
                    p.master.lines() >> l & 1
                } else {
                    p.slave.lines() >> (l - 8) & 1
                }
            })
        };
        assert_eq!(level(&m), line.map(|_| 0));
        m.bus.port_write(0x331, 0xAC);
        assert_eq!(level(&m), line.map(|_| 1), "IRQ {irq}");
        assert_eq!(m.bus.port_read(0x330), ACK);
        assert_eq!(level(&m), line.map(|_| 1), "one byte still waits");
        assert_eq!(m.bus.port_read(0x330), 0x15);
        assert_eq!(level(&m), line.map(|_| 0), "IRQ {irq} drops");
        if line.is_none() {
            assert_eq!(m.bus.dev.pics.slave.lines(), 0);
        }
    }
}

#[test]
fn power_on_state_is_not_hashed_and_uart_mode_survives_a_save_state() {
    let a = machine(None);
    let b = machine(Some(Mpu401Config::default()));
    assert_eq!(a.state_hash(), b.state_hash(), "an idle MPU hashes as none");
    let mut c = b.clone();
    c.bus.port_write(0x331, CMD_UART);
    assert_ne!(c.state_hash(), b.state_hash());
    let bytes = bincode::serialize(&c).expect("serialize");
    let back: Machine = bincode::deserialize(&bytes).expect("deserialize");
    assert!(back.bus.dev.mpu.uart);
    assert_eq!(back.bus.dev.mpu.config(), Some(Mpu401Config::default()));
    assert_eq!(back.state_hash(), c.state_hash());
}

// The intelligent mode's sequencer, driven as the bus drives it: the
// device catches up to each access's cycle, and the test runs to each
// next event as the scheduler would.

/// Ticks every 100,000 cycles at tempo 120, timebase 120 on [`CPU_HZ`].
const TICK: u64 = 100_000;

/// Reads every waiting byte.
fn drain(m: &mut Mpu401) -> Vec<u8> {
    std::iter::from_fn(|| (m.status() & STATUS_DSR == 0).then(|| m.read_data())).collect()
}

/// A command at `t`, its acknowledge read.
fn cmd(m: &mut Mpu401, c: u8, t: u64) {
    m.catch_up(t);
    m.command(c, t);
    assert_eq!(m.read_data(), ACK, "command {c:02X}h acknowledged");
}

/// A command with its data byte at `t`.
fn cmd_data(m: &mut Mpu401, c: u8, v: u8, t: u64) {
    cmd(m, c, t);
    m.write_data(v, t);
}

/// Data-port bytes at `t`.
fn data(m: &mut Mpu401, bytes: &[u8], t: u64) {
    m.catch_up(t);
    for &b in bytes {
        m.write_data(b, t);
    }
}

/// Runs to the next event (as the scheduler fires it) and returns its
/// cycle with the bytes the MPU then has for the host.
fn next(m: &mut Mpu401) -> (u64, Vec<u8>) {
    let t = m.next_event().expect("an event is scheduled");
    m.catch_up(t);
    (t, drain(m))
}

/// An MPU at tempo 120, timebase 120 (a tick every 1/240 s).
fn at_120() -> Mpu401 {
    let mut m = fitted();
    cmd(&mut m, 0xC5, 0);
    cmd_data(&mut m, 0xE0, 120, 0);
    assert!(m.next_event().is_none(), "the clock is stopped");
    m
}

#[test]
fn tempo_120_timebase_120_ticks_every_240th_of_a_second() {
    let mut m = at_120();
    // Clock to host every clock (E7h 4: four quarter clocks).
    cmd_data(&mut m, 0xE7, 4, 0);
    cmd(&mut m, 0x95, 0);
    for k in 1..=5 {
        assert_eq!(next(&mut m), (k * TICK, vec![0xFD]));
    }
    // The default rate (240 quarter clocks: every 60 clocks, 1/4 s).
    cmd(&mut m, 0xFF, 5 * TICK);
    cmd(&mut m, 0xC5, 5 * TICK);
    cmd_data(&mut m, 0xE0, 120, 5 * TICK);
    cmd(&mut m, 0x95, 5 * TICK);
    assert_eq!(next(&mut m), (65 * TICK, vec![0xFD]));
    assert_eq!(next(&mut m), (125 * TICK, vec![0xFD]));
    // Relative tempo 80h (2:1) from here: 60 clocks in 1/8 s.
    cmd_data(&mut m, 0xE1, 0x80, 125 * TICK);
    assert_eq!(next(&mut m), (125 * TICK + 60 * TICK / 2, vec![0xFD]));
    // Timebase 48 at tempo 100 (B1h resets the relative tempo): 80 clocks
    // a second, 60 of them in 3/4 s.
    let t0 = 155 * TICK;
    cmd(&mut m, 0xB1, t0);
    cmd(&mut m, 0xC2, t0);
    cmd_data(&mut m, 0xE0, 100, t0);
    assert_eq!(next(&mut m), (t0 + CPU_HZ * 3 / 4, vec![0xFD]));
    cmd(&mut m, 0xAF, t0);
    assert_eq!(drain(&mut m), [100], "AFh: the tempo");
    // Off: the clock stops.
    cmd(&mut m, 0x94, t0 + 1);
    assert!(m.next_event().is_none());
}

#[test]
fn a_track_plays_its_notes_at_their_clocks_and_ends() {
    let mut m = at_120();
    cmd_data(&mut m, 0xEC, 0x01, 0);
    cmd(&mut m, 0xB8, 0);
    let t0 = 1000;
    m.command(0x0A, t0);
    assert_eq!(drain(&mut m), [ACK, 0xF0], "start play, track 1 asks");
    assert_eq!(m.take_midi(), [(t0, 0xFA)], "MIDI start");
    // Timing 0: note on at once, and the next request.
    data(&mut m, &[0, 0x90, 60, 100], t0 + 50);
    assert_eq!(
        m.take_midi(),
        [(t0 + 50, 0x90), (t0 + 50, 60), (t0 + 50, 100)]
    );
    assert_eq!(drain(&mut m), [0xF0]);
    // 120 clocks (1/2 s) after the note on: its note off (running
    // status: data bytes only), then the track asks again.
    data(&mut m, &[120, 60, 0], t0 + 900);
    assert!(m.take_midi().is_empty());
    let on = t0 + 50;
    let (t, got) = next(&mut m);
    assert_eq!(got, [0xF0]);
    // The clock started at t0: the event is on its 120th tick.
    assert_eq!(t, t0 + 120 * TICK);
    assert_eq!(m.take_midi(), [(t, 0x90), (t, 60), (t, 0)]);
    assert!(t - on < 120 * TICK + TICK, "within a tick of the note on");
    // Timing overflow: 240 clocks of nothing, then a request.
    data(&mut m, &[0xF8], t + 10);
    let (t2, got) = next(&mut m);
    assert_eq!((t2 - t, got), (240 * TICK, vec![0xF0]));
    // A play counter read: clocks since the track's last event.
    m.catch_up(t2 + 7 * TICK);
    cmd(&mut m, 0xA0, t2 + 7 * TICK);
    assert_eq!(drain(&mut m), [7]);
    // Data end 10 clocks after the overflow: all end to the host.
    data(&mut m, &[10, 0xFC], t2 + 7 * TICK);
    let (t3, got) = next(&mut m);
    assert_eq!((t3 - t2, got), (10 * TICK, vec![0xFC]));
    assert!(m.next_event().is_none(), "nothing left to time");
    cmd(&mut m, 0x05, t3);
    assert_eq!(
        m.take_midi(),
        [(t3, 0xFC)],
        "MIDI stop; no note was left on"
    );
}

#[test]
fn a_late_answer_keeps_the_tracks_time() {
    let mut m = at_120();
    cmd_data(&mut m, 0xEC, 0x03, 0);
    m.command(0x08, 0);
    assert_eq!(drain(&mut m), [ACK, 0xF0], "one request out at a time");
    data(&mut m, &[4, 0x91, 64, 90], 0);
    assert_eq!(
        drain(&mut m),
        [0xF1],
        "track 2 asked after track 1's answer"
    );
    // Track 1's note at 4 clocks; its next request waits while track 2's
    // is out.
    m.catch_up(10 * TICK);
    assert_eq!(
        m.take_midi(),
        [(4 * TICK, 0x91), (4 * TICK, 64), (4 * TICK, 90)]
    );
    assert_eq!(drain(&mut m), []);
    // Track 2 answers at 10 clocks for an event at 6: at once, and its
    // counter keeps the 4 clocks past; then track 1 is asked.
    data(&mut m, &[6, 0x92, 1, 2], 10 * TICK);
    assert_eq!(
        m.take_midi(),
        [(10 * TICK, 0x92), (10 * TICK, 1), (10 * TICK, 2)]
    );
    assert_eq!(drain(&mut m), [0xF0]);
    data(&mut m, &[0xF8], 10 * TICK);
    assert_eq!(drain(&mut m), [0xF1]);
    cmd(&mut m, 0xA1, 10 * TICK);
    assert_eq!(drain(&mut m), [4]);
    // Stop: the notes left on are turned off.
    cmd(&mut m, 0x04, 11 * TICK);
    let off: Vec<u8> = m.take_midi().into_iter().map(|(_, b)| b).collect();
    assert_eq!(off, [0x81, 64, 0, 0x82, 1, 0]);
    assert!(m.next_event().is_none());
}

#[test]
fn the_conductor_changes_the_tempo_at_its_clock() {
    let mut m = at_120();
    cmd(&mut m, 0x8F, 0);
    cmd_data(&mut m, 0xE7, 4, 0);
    cmd(&mut m, 0x95, 0);
    m.command(0x08, 0);
    assert_eq!(drain(&mut m), [ACK, 0xF9], "the conductor asks");
    // Tempo 60 after 2 clocks: from then on a clock every 1/120 s.
    data(&mut m, &[2, 0xE0, 60], 0);
    assert_eq!(next(&mut m), (TICK, vec![0xFD]));
    assert_eq!(next(&mut m), (2 * TICK, vec![0xFD, 0xF9]));
    assert_eq!(next(&mut m), (4 * TICK, vec![0xFD]));
    cmd(&mut m, 0xAF, 4 * TICK);
    assert_eq!(drain(&mut m), [60]);
    // The conductor ends: all end (no track plays).
    data(&mut m, &[0, 0xFC], 4 * TICK);
    assert_eq!(drain(&mut m), [0xFC]);
}

#[test]
fn recording_without_midi_in_sends_timing_overflows() {
    let mut m = at_120();
    m.command(0x22, 0);
    assert_eq!(drain(&mut m), [ACK]);
    assert_eq!(next(&mut m), (240 * TICK, vec![0xF8]));
    m.catch_up(250 * TICK);
    cmd(&mut m, 0xAB, 250 * TICK);
    assert_eq!(drain(&mut m), [10], "ABh: the record counter");
    // 20h alone stands by: no clock.
    cmd(&mut m, 0x11, 250 * TICK);
    cmd(&mut m, 0x20, 250 * TICK);
    assert!(m.next_event().is_none());
}

#[test]
fn the_scheduler_fires_the_sequencer_and_its_interrupt() {
    let config = Mpu401Config::default();
    let mut m = machine(Some(config));
    let hz = m.bus.dev.mpu.seq.cpu_hz;
    for v in [0xC5, 0xE0] {
        m.bus.port_write(0x331, v);
        assert_eq!(m.bus.port_read(0x330), ACK);
    }
    m.bus.port_write(0x330, 120);
    m.bus.port_write(0x331, 0x95);
    assert_eq!(m.bus.port_read(0x330), ACK);
    let slave = |m: &Machine| m.bus.dev.pics.slave.lines() >> 1 & 1;
    assert_eq!(slave(&m), 0);
    let due = m.bus.sched.get(Event::Mpu401).expect("scheduled");
    assert_eq!(due, hz / 4, "60 clocks at 240 a second");
    // A save state mid-play restores the same machine.
    let bytes = bincode::serialize(&m).expect("serialize");
    let back: Machine = bincode::deserialize(&bytes).expect("deserialize");
    assert_eq!(back.state_hash(), m.state_hash());
    m.bus.run_events(due - 1);
    assert_eq!(slave(&m), 0);
    m.bus.run_events(due);
    assert_eq!(slave(&m), 1, "IRQ 9: clock to host");
    assert_eq!(m.bus.port_read(0x330), 0xFD);
    assert_eq!(slave(&m), 0);
}
