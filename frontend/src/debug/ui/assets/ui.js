// tandem's visual debugger: draws the views from one JSON refresh
// (`POST /api {"cmd":"view"}`) and sends the user's actions as requests
// (docs/debugger.md, "The window"). Everything the page shows comes from
// `window.tandemView`, the last refresh, so tests can compare the two.
"use strict";

const params = new URLSearchParams(location.search);
const token = params.get("token") || "";
const $ = (id) => document.getElementById(id);
const hex = (v, n) => (v >>> 0).toString(16).toUpperCase().padStart(n, "0");
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

const ui = {
  codeAddr: params.get("code"), // the code view's first line (null: CS:IP)
  follow: !params.get("code"),  // move the code view to CS:IP at the next stop
  memAddr: params.get("mem") || "ds:0",
  memLen: 256,
  sel: null,           // selected bytes {a, b} (indexes in the memory view)
  tab: "vga",
  busy: false,
  again: false,
  lastCycle: -1,
  lastFrames: -1,
  planesAt: 0,
  pixelBusy: false,
};
window.tandemView = null;
window.tandemRefreshes = 0;

async function api(body) {
  const r = await fetch("/api", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Tandem-Token": token },
    body: JSON.stringify(body),
  });
  const j = await r.json();
  if (!j.ok) throw new Error(j.error || "request failed");
  return j;
}

function showError(e) {
  $("error").textContent = e ? String(e.message || e) : "";
}

// Runs an action, then refreshes every view.
async function act(body, opts = {}) {
  try {
    showError(null);
    const r = await api(body);
    if (opts.follow !== false) ui.follow = $("code-follow").checked;
    await refresh();
    return r;
  } catch (e) {
    showError(e);
    await refresh();
  }
}

async function refresh() {
  if (ui.busy) { ui.again = true; return; }
  ui.busy = true;
  try {
    const q = {
      cmd: "view", mem: ui.memAddr, mem_len: ui.memLen,
      code: ui.codeAddr, follow: ui.follow, code_lines: 40,
    };
    const j = await api(q);
    const v = j.view;
    if (!v.running) ui.follow = false;
    render(v);
    window.tandemView = v;
    window.tandemRefreshes++;
  } catch (e) {
    showError(e);
  } finally {
    ui.busy = false;
  }
  if (ui.again) { ui.again = false; return refresh(); }
  const v = window.tandemView;
  if (v && v.running) setTimeout(refresh, 120);
}

function render(v) {
  renderStatus(v);
  renderScreen(v);
  renderCode(v);
  renderRegs(v);
  renderStack(v);
  renderMem(v);
  renderDevices(v);
  renderTimeline(v);
  renderGolden(v);
  renderBps(v);
  $("output").textContent = v.output;
}

function stopText(s) {
  if (!s) return "";
  switch (s.stop) {
    case "hook": return "breakpoint " + s.hook + (s.by ? " (" + s.by.text + ")" : "");
    case "step": return "stepped";
    case "limit": return "time limit";
    case "paused": return "paused";
    case "history_start": return "start of the history";
    case "exited": return "exited with " + s.code;
    case "stopped": return s.message;
    case "start": return "at the entry";
    default: return s.stop;
  }
}

function renderStatus(v) {
  const st = $("status");
  st.dataset.cycle = v.cycle;
  st.dataset.running = v.running;
  st.textContent = (v.running ? "running" : stopText(v.stop)) + " \u00b7 cycle " + v.cycle +
    " \u00b7 " + v.seconds.toFixed(4) + " s \u00b7 frame " + v.video_frames + " \u00b7 " + v.cpu;
  $("btn-run").innerHTML = v.running ? "&#10074;&#10074; Pause" : "&#9654; Run";
}

function renderScreen(v) {
  const img = $("screen");
  const key = v.cycle + ":" + v.screen.frames;
  if (key !== ui.lastFrames) {
    ui.lastFrames = key;
    img.src = "/screen.png?token=" + encodeURIComponent(token) + "&k=" + encodeURIComponent(key);
  }
}

$("screen").addEventListener("load", () => {
  const img = $("screen");
  const k = $("screen-x2").checked ? 2 : 1;
  img.style.width = img.naturalWidth * k + "px";
  img.style.height = img.naturalHeight * k + "px";
  $("screen-size").textContent = img.naturalWidth + "\u00d7" + img.naturalHeight;
});
$("screen-x2").addEventListener("change", () => $("screen").dispatchEvent(new Event("load")));

$("screen").addEventListener("mousemove", async (e) => {
  const img = $("screen");
  if (ui.pixelBusy || !img.naturalWidth) return;
  const x = Math.floor(e.offsetX * img.naturalWidth / img.clientWidth);
  const y = Math.floor(e.offsetY * img.naturalHeight / img.clientHeight);
  ui.pixelBusy = true;
  try {
    const p = (await api({ cmd: "pixel", x, y })).pixel;
    const el = $("pixel-info");
    el.dataset.x = x; el.dataset.y = y;
    if (!p.inside) { el.textContent = "(" + x + "," + y + ") outside the picture"; return; }
    const rgb = p.rgb;
    el.innerHTML = "(" + x + "," + y + ") value " + hex(p.value, 2) + "h" +
      (p.dac_index !== p.value ? " \u2192 DAC " + hex(p.dac_index, 2) + "h" : "") +
      ' <span class="swatch" style="display:inline-block;vertical-align:middle;background:rgb(' + rgb.join(",") + ')"></span>' +
      " RGB " + rgb.join(",") + "<br>plane " + p.plane + (p.bit !== null ? " bit " + p.bit : "") +
      " offset " + hex(p.offset, 4) + "h" + (p.cpu ? " \u00b7 CPU " + p.cpu : "") +
      (p.char !== null ? " \u00b7 char " + hex(p.char, 2) + "h" : "");
  } catch (err) {
    showError(err);
  } finally {
    ui.pixelBusy = false;
  }
});

function renderCode(v) {
  if (v.code.error) showError("code view: " + v.code.error);
  const rows = [];
  for (const l of v.code.lines) {
    const addr = hex(l.cs, 4) + ":" + hex(l.ip, 4);
    if (l.label) rows.push('<tr class="labelrow"><td></td><td colspan="4">' + esc(l.label) + ":</td></tr>");
    const cls = [l.bp !== null ? "bp" : "", l.current ? "current" : ""].join(" ");
    rows.push('<tr class="code-line ' + cls + '" data-addr="' + addr + '" data-cs="' + l.cs + '" data-ip="' + l.ip + '">' +
      '<td class="gutter" title="breakpoint"></td><td class="addr">' + addr + "</td>" +
      '<td class="hex">' + l.hex + '</td><td class="text">' + esc(l.text) +
      (l.target ? ' <span class="target">; ' + esc(l.target) + "</span>" : "") + "</td>" +
      '<td><button class="runto" title="run to here">&#9656;</button></td></tr>');
  }
  $("code").innerHTML = rows.join("");
  ui.codeAddr = v.code.anchor;
  if (document.activeElement !== $("code-addr")) $("code-addr").value = v.code.anchor;
}

$("code").addEventListener("click", (e) => {
  const tr = e.target.closest("tr.code-line");
  if (!tr) return;
  if (e.target.closest("td.gutter")) act({ cmd: "toggle_break", addr: tr.dataset.addr }, { follow: false });
  else if (e.target.closest("button.runto")) { act({ cmd: "run_to", addr: tr.dataset.addr }); }
});

function codeGo() {
  ui.codeAddr = $("code-addr").value.trim() || null;
  ui.follow = false;
  refresh();
}
$("code-go").addEventListener("click", codeGo);
$("code-addr").addEventListener("keydown", (e) => { if (e.key === "Enter") codeGo(); });

function renderRegs(v) {
  $("regs").innerHTML = v.regs.list.map((r) =>
    '<span class="reg' + (r.changed ? " changed" : "") + '" data-name="' + r.name + '" data-value="' + r.value + '">' +
    '<span class="n">' + r.name.toUpperCase() + '</span><span class="v">' + hex(r.value, r.width) + "</span></span>").join("");
  $("flags").innerHTML = v.regs.flags.map((f) =>
    '<span class="flag' + (f.set ? " set" : "") + (f.changed ? " changed" : "") + '" data-name="' + f.name +
    '" data-set="' + f.set + '">' + (f.set ? f.name : f.name.toLowerCase()) + "</span>").join("");
}

$("regs").addEventListener("dblclick", (e) => {
  const r = e.target.closest(".reg");
  if (!r) return;
  const val = prompt("New value of " + r.dataset.name.toUpperCase() + " (hex)", hex(+r.dataset.value, 4));
  if (val === null) return;
  const n = parseInt(val, 16);
  if (Number.isNaN(n)) { showError("not a hex number: " + val); return; }
  act({ cmd: "set_regs", regs: { [r.dataset.name]: n } }, { follow: false });
});

function renderStack(v) {
  const s = v.stack;
  $("stack").innerHTML = s.words.map((w) =>
    "<tr><td>" + hex(s.ss, 4) + ":" + hex(w.off, 4) + "</td><td>" + hex(w.value, 4) + '</td><td class="sym">' +
    (w.symbol ? "\u2190 " + esc(w.symbol) : "") + "</td></tr>").join("");
  $("frames").innerHTML = s.frames.slice(0, 12).map((f) =>
    "<div>" + (f.int ? "int " : "call ") + f.to + (f.to_symbol ? " " + esc(f.to_symbol) : "") +
    " from " + f.from + (f.from_symbol ? " " + esc(f.from_symbol) : "") + "</div>").join("");
}

function renderMem(v) {
  const m = v.memory;
  if (m.error) {
    showError("memory view: " + m.error);
    $("mem").textContent = "";
    return;
  }
  const bytes = [];
  for (let i = 0; i < m.hex.length; i += 2) bytes.push(parseInt(m.hex.substr(i, 2), 16));
  const changed = new Set(m.changed);
  const watched = new Set(m.watched);
  const syms = new Map(m.symbols.map((s) => [s.index, s.name]));
  const rows = [];
  for (let r = 0; r < bytes.length; r += 16) {
    const label = m.seg !== null ? hex(m.seg, 4) + ":" + hex((m.off + r) & 0xffff, 4) : hex(m.linear + r, 5);
    let h = "", a = "";
    for (let i = r; i < Math.min(r + 16, bytes.length); i++) {
      const b = bytes[i];
      const cls = ["byte", changed.has(i) ? "changed" : "", watched.has(i) ? "watched" : "",
        syms.has(i) ? "sym" : "", inSel(i) ? "sel" : ""].join(" ");
      h += '<span class="' + cls + '" data-index="' + i + '" data-linear="' + (m.linear + i) + '"' +
        (syms.has(i) ? ' title="' + esc(syms.get(i)) + '"' : "") + ">" + hex(b, 2) + "</span>" + (i % 16 === 7 ? "  " : " ");
      a += b >= 32 && b < 127 ? esc(String.fromCharCode(b)) : ".";
    }
    rows.push('<div class="memrow"><span class="a">' + label + "</span>  " + h + ' <span class="ascii">' + a + "</span></div>");
  }
  $("mem").innerHTML = rows.join("");
  ui.memLinear = m.linear;
  if (document.activeElement !== $("mem-addr")) $("mem-addr").value = m.text;
}

function inSel(i) {
  if (!ui.sel) return false;
  const lo = Math.min(ui.sel.a, ui.sel.b), hi = Math.max(ui.sel.a, ui.sel.b);
  return i >= lo && i <= hi;
}

function memGo() {
  ui.memAddr = $("mem-addr").value.trim() || "ds:0";
  ui.sel = null;
  refresh();
}
$("mem-go").addEventListener("click", memGo);
$("mem-addr").addEventListener("keydown", (e) => { if (e.key === "Enter") memGo(); });

let dragging = false;
$("mem").addEventListener("mousedown", (e) => {
  const b = e.target.closest(".byte");
  if (!b || e.detail > 1) return;
  dragging = true;
  ui.sel = { a: +b.dataset.index, b: +b.dataset.index };
  paintSel();
  e.preventDefault();
});
$("mem").addEventListener("mouseover", (e) => {
  const b = e.target.closest(".byte");
  if (!dragging || !b) return;
  ui.sel.b = +b.dataset.index;
  paintSel();
});
document.addEventListener("mouseup", () => { dragging = false; });

function paintSel() {
  for (const el of document.querySelectorAll("#mem .byte")) el.classList.toggle("sel", inSel(+el.dataset.index));
  if (ui.sel) {
    const lo = Math.min(ui.sel.a, ui.sel.b), hi = Math.max(ui.sel.a, ui.sel.b);
    $("mem-sel").textContent = (hi - lo + 1) + " byte" + (hi > lo ? "s" : "") + " at " + hex(ui.memLinear + lo, 5);
  } else $("mem-sel").textContent = "";
}

$("mem-watch").addEventListener("click", () => {
  if (!ui.sel) { showError("select bytes in the memory view first"); return; }
  const lo = Math.min(ui.sel.a, ui.sel.b), hi = Math.max(ui.sel.a, ui.sel.b);
  act({ cmd: "watch", linear: ui.memLinear + lo, len: hi - lo + 1, access: "w" }, { follow: false });
});

$("mem").addEventListener("dblclick", (e) => {
  const b = e.target.closest(".byte");
  if (!b) return;
  const input = document.createElement("input");
  input.value = b.textContent;
  b.textContent = "";
  b.appendChild(input);
  input.focus();
  input.select();
  const done = (ok) => {
    const val = input.value.trim();
    if (ok && /^[0-9a-fA-F]{1,2}$/.test(val)) {
      act({ cmd: "write", addr: +b.dataset.linear, hex: val.padStart(2, "0") }, { follow: false });
    } else refresh();
  };
  input.addEventListener("keydown", (k) => {
    if (k.key === "Enter") done(true);
    if (k.key === "Escape") done(false);
  });
  input.addEventListener("blur", () => done(false), { once: true });
});

function renderDevices(v) {
  const d = v.devices || {};
  const g = d.vga;
  if (g) {
    $("vga-info").textContent = "BIOS mode " + hex(g.bios_mode, 2) + "h \u00b7 " + g.width + "\u00d7" + g.height +
      (g.graphics ? " graphics" : " text") + (g.chain4 ? " \u00b7 chain 4" : "") +
      " \u00b7 start " + hex(g.start_address, 4) + "h \u00b7 offset " + g.offset + " \u00b7 PEL mask " + hex(g.pel_mask, 2) + "h";
    const dac = $("dac");
    if (dac.children.length !== 256) {
      dac.innerHTML = Array.from({ length: 256 }, (_, i) => '<div class="swatch" data-index="' + i + '"></div>').join("");
    }
    g.dac.forEach((c, i) => {
      const el = dac.children[i];
      const col = "rgb(" + c.join(",") + ")";
      if (el.dataset.rgb !== col) {
        el.style.background = col;
        el.dataset.rgb = col;
        el.title = hex(i, 2) + "h: " + g.dac6[i].map((x) => hex(x, 2)).join(" ") + " (6-bit)";
      }
    });
    const regs = (name, a) => "<div><b>" + name + "</b> " + a.map((x, i) => '<span title="' + hex(i, 2) + 'h">' + hex(x, 2) + "</span>").join(" ") + "</div>";
    $("vga-regs").innerHTML = "misc " + hex(g.misc, 2) + "h" + regs("SEQ", g.sequencer) + regs("CRTC", g.crtc) +
      regs("GC", g.graphics_regs) + regs("ATTR", g.attribute);
  }
  if (ui.tab === "planes" && Date.now() - ui.planesAt > 400) {
    ui.planesAt = Date.now();
    const k = encodeURIComponent(v.cycle);
    const t = encodeURIComponent(token);
    if (!$("planes").children.length) {
      $("planes").innerHTML = [0, 1, 2, 3].map((n) =>
        '<figure><img id="plane-' + n + '"><figcaption>plane ' + n + "</figcaption></figure>").join("");
    }
    for (let n = 0; n < 4; n++) $("plane-" + n).src = "/plane.png?token=" + t + "&n=" + n + "&k=" + k;
  }
  if (d.pit) {
    $("pit").innerHTML = "<tr><th>PIT</th><th>mode</th><th>divisor</th><th>count</th><th>rate</th><th>out</th><th>gate</th></tr>" +
      d.pit.channels.map((c) => "<tr><td>ch " + c.channel + "</td><td>" + c.mode + "</td><td>" + c.reload + "</td><td>" + c.count +
        "</td><td>" + (+c.rate_hz).toFixed(2) + " Hz</td><td>" + (c.out ? 1 : 0) + "</td><td>" + (c.gate ? 1 : 0) + "</td></tr>").join("");
  }
  if (d.pic) {
    $("pic").innerHTML = "<tr><th>PIC</th><th>base</th><th>IMR</th><th>IRR</th><th>ISR</th></tr>" +
      d.pic.chips.map((c) => "<tr><td>" + c.name + "</td><td>" + hex(c.vector_base, 2) + "h</td><td>" + hex(c.imr, 2) +
        "h</td><td>" + hex(c.irr, 2) + "h</td><td>" + hex(c.isr, 2) + "h</td></tr>").join("") +
      "<tr><td colspan=5>pending IRQs: " + ((d.pic.pending || []).join(", ") || "none") + "</td></tr>";
  }
  if (d.opl) {
    const on = (d.opl.voices || []).filter((x) => x.key_on);
    $("opl").innerHTML = "<b>OPL" + (d.opl.opl3 ? "3" : "2") + "</b> " + (d.opl.fitted ? "" : "(not fitted) ") +
      on.length + " voice" + (on.length === 1 ? "" : "s") + " on<br>" +
      (d.opl.voices || []).map((x) => '<span class="' + (x.key_on ? "on-voice" : "dim") + '">' + x.channel + ":" +
        (x.key_on ? (+x.hz).toFixed(1) + "Hz" : "off") + "</span>").join(" ");
  }
  if (d.sb) {
    const s = d.sb;
    $("sb").innerHTML = "<br><b>Sound Blaster</b> " + (s.fitted ? "at " + hex(s.base, 3) + "h IRQ " + s.irq + " DMA " + s.dma8 + "/" + s.dma16 : "not fitted") +
      (s.dsp ? "<br>DSP " + esc(JSON.stringify(s.dsp)) : "") +
      (s.dma || []).map((c) => "<br>DMA ch " + c.channel + ": addr " + hex(c.address, 4) + "h count " + hex(c.count, 4) +
        "h page " + hex(c.page, 2) + "h mode " + hex(c.mode, 2) + "h" + (c.masked ? " masked" : "")).join("");
  }
  if (d.dos) {
    $("dos-files").innerHTML = "<tr><th>handle</th><th>file</th><th>size</th><th>pos</th><th>mode</th></tr>" +
      (d.dos.files || []).map((f) => "<tr><td>" + f.handle + "</td><td>" + esc(f.name) + "</td><td>" + f.size + "</td><td>" +
        f.position + "</td><td>" + f.mode + "</td></tr>").join("");
    $("dos-arena").innerHTML = "<tr><th>MCB</th><th>owner</th><th>paras</th><th>name</th><th>kind</th></tr>" +
      (d.dos.arena || []).map((b) => "<tr><td>" + hex(b.segment, 4) + "</td><td>" + hex(b.owner, 4) + "</td><td>" +
        hex(b.paragraphs, 4) + "</td><td>" + esc(b.name || "") + "</td><td>" + b.kind + "</td></tr>").join("") +
      (d.dos.arena_error ? "<tr><td colspan=5>" + esc(d.dos.arena_error) + "</td></tr>" : "");
  }
}

for (const b of document.querySelectorAll(".tab")) {
  b.addEventListener("click", () => {
    ui.tab = b.dataset.tab;
    for (const t of document.querySelectorAll(".tab")) t.classList.toggle("on", t === b);
    for (const p of document.querySelectorAll(".tabpage")) p.classList.toggle("hidden", p.id !== "tab-" + ui.tab);
    ui.planesAt = 0;
    refresh();
  });
}

function renderTimeline(v) {
  const t = v.timeline;
  const s = $("timeline");
  s.disabled = !t.kept || t.end <= t.start;
  if (!ui.sliding) {
    s.min = t.start;
    s.max = Math.max(t.end, t.start + 1);
    s.value = t.now;
  }
  const span = Math.max(1, t.end - t.start);
  $("markers").innerHTML = t.markers.filter((m) => m.cycle >= t.start && m.cycle <= t.end).map((m) =>
    '<div class="marker ' + m.kind + '" data-cycle="' + m.cycle + '" title="' + esc(m.text) + " (cycle " + m.cycle + ')" style="left:' +
    ((m.cycle - t.start) / span * 100).toFixed(3) + '%"></div>').join("");
  $("timeline-info").textContent = t.kept ? "cycle " + t.now + " of " + t.start + "\u2013" + t.end : "no history kept";
}

// Dragging the timeline moves the machine: one goto at a time while the
// knob moves, and one where it is let go.
let gotoBusy = false;
async function gotoCycle(c) {
  if (gotoBusy) { ui.gotoNext = c; return; }
  gotoBusy = true;
  try {
    await api({ cmd: "goto", cycle: Math.round(c) });
    ui.follow = true;
  } catch (e) {
    showError(e);
  } finally {
    gotoBusy = false;
  }
  if (ui.gotoNext !== undefined) {
    const n = ui.gotoNext;
    ui.gotoNext = undefined;
    return gotoCycle(n);
  }
  ui.sliding = false;
  await refresh();
}
$("timeline").addEventListener("input", (e) => { ui.sliding = true; gotoCycle(+e.target.value); });
$("markers").addEventListener("click", (e) => {
  const m = e.target.closest(".marker");
  if (m) gotoCycle(+m.dataset.cycle);
});

function renderGolden(v) {
  const g = v.golden;
  const el = $("golden");
  if (!g) {
    el.innerHTML = '<span class="dim">start with --profile NAME to name routines and tables; <code>tandem run --check --ui</code> opens here at a divergence</span>';
    $("golden-profile").textContent = "";
    return;
  }
  $("golden-profile").textContent = g.profile || "";
  let h = "";
  if (g.status) h += '<div class="' + (g.report ? "bad" : "ok") + '">' + esc(g.status) + "</div>";
  if (g.frames && g.frames.length) {
    h += '<div class="frames">' + g.frames.slice().reverse().map((f) =>
      '<span class="fr' + (f.ok ? "" : " bad") + '" title="cycle ' + f.cycle + '"></span>').join("") + "</div>";
  }
  if (g.report) {
    const r = g.report;
    h += '<div class="bad">' + r.lines.map(esc).join("<br>") + "</div>";
    if (g.writer) h += '<div>written by <a id="golden-writer" data-addr="' + g.writer + '" data-cycle="' +
      (r.written_by ? r.written_by.cycle : "") + '">' + g.writer + "</a></div>";
  }
  el.innerHTML = h || '<span class="dim">no lock-step check in this session</span>';
}

$("golden").addEventListener("click", async (e) => {
  const a = e.target.closest("#golden-writer");
  if (!a) return;
  const t = window.tandemView && window.tandemView.timeline;
  const c = +a.dataset.cycle;
  if (t && t.kept && a.dataset.cycle !== "" && c >= t.start && c <= t.end) {
    await api({ cmd: "goto", cycle: c }).catch(showError);
  }
  ui.codeAddr = a.dataset.addr;
  ui.follow = false;
  refresh();
});

function renderBps(v) {
  $("bps").innerHTML = v.breakpoints.length ? v.breakpoints.map((b) =>
    '<div data-n="' + b.n + '">#' + b.n + " " + esc(b.text) + " \u00b7 " + b.hits + ' hit' + (b.hits === 1 ? "" : "s") +
    ' <a class="del" data-n="' + b.n + '">delete</a></div>').join("") : '<span class="dim">none</span>';
}
$("bps").addEventListener("click", (e) => {
  const a = e.target.closest("a.del");
  if (a) act({ cmd: "unhook", hook: +a.dataset.n }, { follow: false });
});

$("btn-run").addEventListener("click", () => {
  const v = window.tandemView;
  act({ cmd: v && v.running ? "pause" : "run" });
});
$("btn-step").addEventListener("click", () => act({ cmd: "step" }));
$("btn-over").addEventListener("click", () => act({ cmd: "next" }));
$("btn-out").addEventListener("click", () => act({ cmd: "finish" }));
$("btn-rstep").addEventListener("click", () => act({ cmd: "reverse_step" }));
$("btn-rcont").addEventListener("click", () => act({ cmd: "reverse_continue" }));
$("keys").addEventListener("keydown", (e) => {
  if (e.key !== "Enter") return;
  const text = e.target.value.replace(/\\n/g, "\n").replace(/\\e/g, "\x1b");
  if (!text) return;
  e.target.value = "";
  act({ cmd: "key", text }, { follow: false });
});
$("btn-quit").addEventListener("click", async () => {
  try { await api({ cmd: "quit" }); } catch (e) { /* the server has gone */ }
  document.body.innerHTML = "<p style='padding:2em'>The debugger has ended.</p>";
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT") return;
  const keys = { F5: "btn-run", F10: "btn-over", F11: e.shiftKey ? "btn-out" : "btn-step" };
  if (keys[e.key]) { e.preventDefault(); $(keys[e.key]).click(); }
});

refresh();
