//! The WebDriver client the browser tests use (`common::webdriver`),
//! tried on a tiny page served from this process: clicking, text,
//! attributes, scripts, typing, screenshots and mouse drags.
//!
//! Skipped (loudly) without chromedriver and Chromium, unless
//! `TANDEM_REQUIRE_CHROMIUM` is set.

mod common;
use common::webdriver::{
    base64_decode, skip_without_chromium, wait_until, Browser, Element, Screenshot,
};

use serde_json::json;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::Duration;

const PAGE: &str = r#"<!doctype html>
<html><head><title>selftest</title></head>
<body style="margin:0;background:#fff">
<button id="go" style="display:block;width:120px;height:30px"
  onclick="var d=document.getElementById('box'); d.textContent='clicked'; d.style.background='rgb(10,200,30)'">Go</button>
<div id="box" data-kind="target" style="width:200px;height:100px;background:rgb(255,255,255);font-size:10px">idle</div>
<input id="range" type="range" min="0" max="100" value="10" style="display:block;width:300px;margin:0">
<input id="name" type="text" value="old">
<p class="item">a</p><p class="item">b</p><p class="item">c</p>
</body></html>"#;

/// Serves `PAGE` on a free localhost port for the rest of the process;
/// its URL.
fn serve() -> String {
    let l = TcpListener::bind("127.0.0.1:0").expect("a localhost port");
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in l.incoming() {
            let Ok(mut s) = stream else { continue };
            let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
            // Read the request's head (no request here has a body).
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && head.len() < 16384 {
                match s.read(&mut byte) {
                    Ok(1) => head.push(byte[0]),
                    _ => break,
                }
            }
            let path = String::from_utf8_lossy(&head)
                .split(' ')
                .nth(1)
                .unwrap_or("/")
                .to_string();
            let (status, body) = if path == "/" {
                ("200 OK", PAGE)
            } else {
                ("404 Not Found", "not here")
            };
            let _ = write!(
                s,
                "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://127.0.0.1:{port}/")
}

#[test]
fn base64_decodes() {
    assert_eq!(base64_decode("").unwrap(), b"");
    assert_eq!(base64_decode("Zg==").unwrap(), b"f");
    assert_eq!(base64_decode("Zm8=").unwrap(), b"fo");
    assert_eq!(base64_decode("Zm9v").unwrap(), b"foo");
    assert_eq!(base64_decode("Zm9vYg").unwrap(), b"foob");
    assert_eq!(base64_decode("Zm9v\nYmFy").unwrap(), b"foobar");
    assert_eq!(base64_decode("+/8=").unwrap(), [0xfb, 0xff]);
    assert!(base64_decode("Zm9v!").is_err());
    assert!(base64_decode("Z").is_err());
    assert!(base64_decode("Zg==Zg").is_err());
}

#[test]
fn drives_a_page() {
    if skip_without_chromium("webdriver_selftest::drives_a_page") {
        return;
    }
    let url = serve();
    let b = Browser::start(640, 480).expect("the browser starts");
    b.goto(&url).expect("the page loads");
    assert_eq!(b.title().unwrap(), "selftest");

    // Clicking sets the box's text and colour.
    let bx = b.find("#box").unwrap();
    assert_eq!(bx.text().unwrap(), "idle");
    assert_eq!(bx.attr("data-kind").unwrap().as_deref(), Some("target"));
    assert_eq!(bx.attr("nonesuch").unwrap(), None);
    b.find("#go").unwrap().click().unwrap();
    wait_until(Duration::from_secs(5), || Ok(bx.text()? == "clicked"))
        .expect("the box says clicked");

    // The screenshot shows the box green in its middle.
    let shot = b.screenshot().unwrap();
    assert_eq!((shot.width, shot.height), (640, 480), "the viewport's size");
    assert_eq!(shot.rgba.len(), 640 * 480 * 4);
    let (x, y, w, h) = bx.rect().unwrap();
    assert_eq!((w, h), (200.0, 100.0));
    let (cx, cy) = ((x + w / 2.0) as u32, (y + h / 2.0) as u32);
    let px = shot.pixel(cx, cy);
    eprintln!("box at ({x}, {y}); pixel ({cx}, {cy}) = {px:?}");
    let close = |a: u8, b: u8| a.abs_diff(b) <= 2;
    if !(close(px[0], 10) && close(px[1], 200) && close(px[2], 30) && px[3] == 255) {
        let p = std::env::temp_dir().join("webdriver_selftest.png");
        shot.save(&p).unwrap();
        panic!(
            "pixel ({cx}, {cy}) is {px:?}, not rgb(10,200,30); see {}",
            p.display()
        );
    }
    assert_eq!(
        shot.pixel(cx, y as u32 + h as u32 + 40)[..3],
        [255, 255, 255],
        "below the box"
    );
    assert_eq!(shot.pixel(10_000, 0), [0; 4]);

    // Saving and reading back gives the same image.
    let p = std::env::temp_dir().join(format!("webdriver_selftest_{}.png", std::process::id()));
    shot.save(&p).unwrap();
    let again = Screenshot::from_png(&std::fs::read(&p).unwrap()).unwrap();
    let _ = std::fs::remove_file(&p);
    assert_eq!((again.width, again.height), (shot.width, shot.height));
    assert!(again.rgba == shot.rgba, "the saved PNG reads back the same");

    // Dragging the range's thumb from near its left to the right.
    let range = b.find("#range").unwrap();
    let value = || -> Result<f64, String> {
        let v = range.property("value")?;
        v.as_str()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("range value {v}"))
    };
    assert_eq!(value().unwrap(), 10.0);
    let (_, _, rw, _) = range.rect().unwrap();
    assert_eq!(rw, 300.0);
    // The thumb of value 10 sits about 10% along: -120 from the centre.
    b.drag(&range, -120.0, 100.0).unwrap();
    let dragged = value().unwrap();
    eprintln!("range after the drag: {dragged}");
    assert!(dragged > 70.0, "the drag moved the range to {dragged}");

    // Clicking on its track near the left sets a low value.
    b.click_at(&range, -120.0, 0.0).unwrap();
    let clicked = value().unwrap();
    eprintln!("range after click_at: {clicked}");
    assert!(clicked < 30.0, "the click moved the range to {clicked}");

    scripts_typing_and_lists(&b, &bx);
}

/// Scripts with element arguments and results, typing, lists, and what
/// is missing.
fn scripts_typing_and_lists(b: &Browser, bx: &Element) {
    // Scripts, with an element argument and an element result.
    let r = b
        .execute(
            "return arguments[0].id + ':' + arguments[1];",
            vec![bx.as_arg(), json!(7)],
        )
        .unwrap();
    assert_eq!(r, json!("box:7"));
    let found = b
        .execute("return document.getElementById('go');", vec![])
        .unwrap();
    assert_eq!(b.element_from(&found).unwrap().text().unwrap(), "Go");
    let err = b.execute("throw new Error('boom');", vec![]).unwrap_err();
    assert!(
        err.contains("javascript error") && err.contains("boom"),
        "{err}"
    );

    // Typing.
    let name = b.find("#name").unwrap();
    name.clear().unwrap();
    name.send_keys("hello").unwrap();
    assert_eq!(name.property("value").unwrap(), json!("hello"));

    // Lists, and what is missing.
    assert_eq!(b.find_all("p.item").unwrap().len(), 3);
    assert!(b.find_all("p.nonesuch").unwrap().is_empty());
    let err = b
        .find_within("#nonesuch", Duration::from_millis(200))
        .unwrap_err();
    assert!(err.contains("#nonesuch"), "{err}");
    let err = b.find_all("p[").unwrap_err();
    assert!(err.contains("invalid selector"), "{err}");
    let err = wait_until(Duration::from_millis(100), || Ok(false)).unwrap_err();
    assert!(err.contains("not met"), "{err}");
}
